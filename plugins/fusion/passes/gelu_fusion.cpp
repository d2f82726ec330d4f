#include "passes/gelu_fusion.hpp"

#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "core/claims.hpp"
#include "core/constant_values.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/pattern_helpers.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

constexpr double kTolerance = 1e-4;

struct GeluFusionMatch {
  std::string x;
  std::vector<Node*> nodes;
  std::string output;
  bool tanh_form = false;
};

class GeluMatcher {
 public:
  GeluMatcher(const Graph& graph, const ValueUses& uses) : graph_(graph), uses_(uses) {}

  std::optional<GeluFusionMatch> from_erf(Node* erf) const {
    Node* scaled = uses_.producer(erf->inputs.at(0));
    if (uses_.sole_consumer(erf->inputs[0]) != erf || scaled == nullptr) return std::nullopt;
    std::optional<std::string> x;
    if (is_op(scaled, "Div") && is_scalar(scaled->inputs.at(1), std::numbers::sqrt2)) x = scaled->inputs[0];
    else if (is_op(scaled, "Mul")) x = operand_besides_scalar(*scaled, 1.0 / std::numbers::sqrt2);
    if (!x) return std::nullopt;
    return finish(*x, {scaled, erf}, false);
  }

  std::optional<GeluFusionMatch> from_tanh(Node* tanh) const {
    Node* scaled = uses_.producer(tanh->inputs.at(0));
    if (uses_.sole_consumer(tanh->inputs[0]) != tanh || !is_op(scaled, "Mul")) return std::nullopt;
    const auto inner = operand_besides_scalar(*scaled, std::sqrt(2.0 / std::numbers::pi));
    Node* sum = inner ? sole_producer(*inner) : nullptr;
    if (!is_op(sum, "Add")) return std::nullopt;
    // sum = x + 0.044715·x³ in either order.
    for (int side = 0; side < 2; ++side) {
      const std::string& x = sum->inputs.at(side);
      Node* term = sole_producer(sum->inputs.at(1 - side));
      if (!is_op(term, "Mul")) continue;
      const auto cube_value = operand_besides_scalar(*term, 0.044715);
      std::vector<Node*> cube_nodes;
      if (!cube_value || !is_cube_of(*cube_value, x, cube_nodes)) continue;
      std::vector<Node*> nodes = cube_nodes;
      nodes.insert(nodes.end(), {term, sum, scaled, tanh});
      return finish(x, std::move(nodes), true);
    }
    return std::nullopt;
  }

 private:
  bool is_scalar(const std::string& name, double expected) const {
    return is_scalar_constant(graph_, uses_, name, expected, kTolerance);
  }

  // For a binary Mul with a scalar constant `expected` on one side: the other operand.
  std::optional<std::string> operand_besides_scalar(const Node& mul, double expected) const {
    if (!is_op(&mul, "Mul") || mul.inputs.size() != 2) return std::nullopt;
    if (is_scalar(mul.inputs[1], expected)) return mul.inputs[0];
    if (is_scalar(mul.inputs[0], expected)) return mul.inputs[1];
    return std::nullopt;
  }

  // The producer of an intermediate value that nothing but its one reader uses.
  Node* sole_producer(const std::string& value) const {
    return uses_.sole_consumer(value) != nullptr ? uses_.producer(value) : nullptr;
  }

  // value = Pow(x, 3), or x·(x·x) / (x·x)·x; the nodes are appended to `nodes`.
  bool is_cube_of(const std::string& value, const std::string& x, std::vector<Node*>& nodes) const {
    Node* node = sole_producer(value);
    if (is_op(node, "Pow") && node->inputs.at(0) == x && is_scalar(node->inputs.at(1), 3.0)) {
      nodes.push_back(node);
      return true;
    }
    if (!is_op(node, "Mul")) return false;
    const auto square_value = other_operand(*node, x);
    Node* square = square_value ? sole_producer(*square_value) : nullptr;
    if (!is_op(square, "Mul") || square->inputs.at(0) != x || square->inputs.at(1) != x) return false;
    nodes.insert(nodes.end(), {square, node});
    return true;
  }

  // After erf/tanh (the last of `nodes`): Add 1, then the products with x and 0.5.
  std::optional<GeluFusionMatch> finish(const std::string& x, std::vector<Node*> nodes,
                                        bool tanh_form) const {
    Node* plus_one = uses_.sole_consumer(nodes.back()->outputs.at(0));
    if (!is_op(plus_one, "Add")) return std::nullopt;
    const auto one = other_operand(*plus_one, nodes.back()->outputs[0]);
    if (!one || !is_scalar(*one, 1.0)) return std::nullopt;
    nodes.push_back(plus_one);
    const std::string p = plus_one->outputs.at(0);
    Node* first = uses_.sole_consumer(p);
    if (!is_op(first, "Mul")) return std::nullopt;
    const auto partner = other_operand(*first, p);
    if (!partner) return std::nullopt;
    Node* second = nullptr;
    if (*partner == x || is_scalar(*partner, 0.5)) {
      // (x·p)·0.5 or x·(p·0.5): one more Mul by the missing factor.
      second = uses_.sole_consumer(first->outputs.at(0));
      if (!is_op(second, "Mul")) return std::nullopt;
      const auto last = other_operand(*second, first->outputs[0]);
      const bool completes = *partner == x ? (last && is_scalar(*last, 0.5)) : (last && *last == x);
      if (!completes) return std::nullopt;
      nodes.insert(nodes.end(), {first, second});
      return GeluFusionMatch{x, std::move(nodes), second->outputs.at(0), tanh_form};
    }
    // (x·0.5)·p
    Node* half = sole_producer(*partner);
    if (!is_op(half, "Mul") || operand_besides_scalar(*half, 0.5) != x) return std::nullopt;
    nodes.insert(nodes.end(), {half, first});
    return GeluFusionMatch{x, std::move(nodes), first->outputs.at(0), tanh_form};
  }

  const Graph& graph_;
  const ValueUses& uses_;
};

}  // namespace

PassResult GeluFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  const GeluMatcher matcher(graph, uses);
  Claims claims;
  std::vector<GeluFusionMatch> matches;
  for (Node* node : graph.nodes()) {
    std::optional<GeluFusionMatch> match;
    if (is_op(node, "Erf")) match = matcher.from_erf(node);
    else if (is_op(node, "Tanh")) match = matcher.from_tanh(node);
    if (match && claims.take(match->nodes)) matches.push_back(std::move(*match));
  }

  for (GeluFusionMatch& match : matches) {
    ++result.match_times;
    Attributes attributes;
    attributes.set("approximate", std::string(match.tanh_form ? "tanh" : "none"));
    Node gelu{match.nodes.front()->name, "Gelu", kFusionDomain, attributes, {match.x}, {match.output}, {}};
    import_fusion_domain(graph);
    graph.replace_nodes(match.nodes, std::move(gelu));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
