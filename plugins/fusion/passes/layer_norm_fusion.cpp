#include "passes/layer_norm_fusion.hpp"

#include <algorithm>
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

struct LayerNormFusionMatch {
  std::string x;
  std::int64_t normalized_axes = 0;  // the trailing axes normalised over
  float epsilon = 0;
  std::optional<Tensor> scale;  // γ, shaped like the normalised axes (leading 1s dropped)
  std::optional<Tensor> bias;   // β
  std::vector<Node*> nodes;
  std::string output;
};

// How many trailing axes a ReduceMean covers (its axes must be exactly those, keepdims=1).
std::optional<std::int64_t> trailing_axes(const Graph& graph, const Node& reduce) {
  if (reduce.attributes.get_int("keepdims", 1) != 1 || !reduce.attributes.has("axes") || reduce.inputs.size() != 1)
    return std::nullopt;
  std::vector<std::int64_t> axes = reduce.attributes.get_ints("axes");
  const bool all_negative = std::all_of(axes.begin(), axes.end(), [](std::int64_t a) { return a < 0; });
  if (!all_negative) {
    const auto rank = value_rank(graph, reduce.inputs[0]);
    if (!rank) return std::nullopt;
    for (auto& axis : axes)
      if (axis >= 0) axis -= static_cast<std::int64_t>(*rank);
  }
  std::sort(axes.begin(), axes.end());
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != -static_cast<std::int64_t>(axes.size() - i)) return std::nullopt;
  return axes.empty() ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(axes.size()));
}

// An affine parameter (γ or β) broadcast over the normalised axes only, with leading 1s dropped.
std::optional<Tensor> affine_parameter(const Tensor& value, std::int64_t normalized_axes, DType dtype) {
  Shape shape = value.shape();
  while (!shape.empty() && shape.front() == 1 && static_cast<std::int64_t>(shape.size()) > normalized_axes)
    shape.erase(shape.begin());
  if (static_cast<std::int64_t>(shape.size()) > normalized_axes || value.dtype() != dtype) return std::nullopt;
  return value.contiguous().reshaped(shape);
}

class LayerNormMatcher {
 public:
  LayerNormMatcher(const Graph& graph, const ValueUses& uses) : graph_(graph), uses_(uses) {}

  std::optional<LayerNormFusionMatch> from_mean(Node* mean) const {
    const auto axes = trailing_axes(graph_, *mean);
    if (!axes) return std::nullopt;
    LayerNormFusionMatch match{mean->inputs[0], *axes, 0, {}, {}, {mean}, ""};
    Node* sub = next(mean, "Sub");
    if (sub == nullptr || sub->inputs.at(0) != match.x || sub->inputs.at(1) != mean->outputs[0]) return std::nullopt;
    const std::string d = sub->outputs.at(0);
    const auto& readers = uses_.consumers(d);
    if (readers.size() != 2 || uses_.is_graph_output(d)) return std::nullopt;
    Node* square = nullptr;
    Node* divide = nullptr;
    for (Node* reader : readers) {
      if (is_square_of(reader, d)) square = reader;
      else if (is_op(reader, "Div") && reader->inputs.at(0) == d) divide = reader;
    }
    if (square == nullptr || divide == nullptr) return std::nullopt;
    Node* variance = next(square, "ReduceMean");
    if (variance == nullptr || trailing_axes(graph_, *variance) != axes) return std::nullopt;
    Node* plus_epsilon = next(variance, "Add");
    const auto epsilon_name = plus_epsilon ? other_operand(*plus_epsilon, variance->outputs[0]) : std::nullopt;
    const auto epsilon = epsilon_name ? scalar_constant(graph_, uses_, *epsilon_name) : std::nullopt;
    Node* root = epsilon ? next(plus_epsilon, "Sqrt") : nullptr;
    if (root == nullptr || next(root, "Div") != divide || divide->inputs.at(1) != root->outputs[0]) return std::nullopt;
    match.epsilon = static_cast<float>(*epsilon);
    match.nodes.insert(match.nodes.end(), {sub, square, variance, plus_epsilon, root, divide});
    match.output = divide->outputs.at(0);
    absorb_affine(match);
    return match;
  }

 private:
  // The sole reader of `node`'s output, when it is a default-domain `op_type`.
  Node* next(const Node* node, const char* op_type) const {
    Node* reader = uses_.sole_consumer(node->outputs.at(0));
    return is_op(reader, op_type) ? reader : nullptr;
  }

  bool is_square_of(const Node* node, const std::string& d) const {
    if (is_op(node, "Pow")) return node->inputs.at(0) == d && is_scalar_constant(graph_, uses_, node->inputs.at(1), 2.0, 0);
    return is_op(node, "Mul") && node->inputs.size() == 2 && node->inputs[0] == d && node->inputs[1] == d;
  }

  // Takes a following Mul by γ and then an Add of β (either may be missing) when they are
  // constants shaped for the normalised axes.
  void absorb_affine(LayerNormFusionMatch& match) const {
    const DType dtype = value_dtype(graph_, match.x);
    for (const bool is_scale : {true, false}) {
      Node* node = next(match.nodes.back(), is_scale ? "Mul" : "Add");
      const auto operand = node ? other_operand(*node, match.output) : std::nullopt;
      const auto value = operand ? constant_value(graph_, uses_, *operand) : std::nullopt;
      auto parameter = value ? affine_parameter(*value, match.normalized_axes, dtype) : std::nullopt;
      if (!parameter) continue;
      (is_scale ? match.scale : match.bias) = std::move(parameter);
      match.nodes.push_back(node);
      match.output = node->outputs.at(0);
    }
  }

  const Graph& graph_;
  const ValueUses& uses_;
};

// γ for LayerNormalization (required there): the matched one, or ones over the normalised axes.
std::optional<Tensor> scale_for(const Graph& graph, const LayerNormFusionMatch& match) {
  if (match.scale) return match.scale;
  const auto dims = value_static_shape(graph, match.x);
  if (!dims || static_cast<std::int64_t>(dims->size()) < match.normalized_axes) return std::nullopt;
  const Shape normalized(dims->end() - match.normalized_axes, dims->end());
  const std::vector<double> ones(static_cast<std::size_t>(num_elements(normalized)), 1.0);
  return Tensor::from_vector<double>(normalized, ones).cast(value_dtype(graph, match.x));
}

}  // namespace

PassResult LayerNormFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  const LayerNormMatcher matcher(graph, uses);
  Claims claims;
  std::vector<LayerNormFusionMatch> matches;
  for (Node* node : graph.nodes()) {
    if (!is_op(node, "ReduceMean")) continue;
    auto match = matcher.from_mean(node);
    if (match && claims.take(match->nodes)) matches.push_back(std::move(*match));
  }

  const bool standard_op = graph.opset("") >= 17;
  for (LayerNormFusionMatch& match : matches) {
    ++result.match_times;
    auto scale = scale_for(graph, match);
    if (!scale) continue;
    Attributes attributes;
    attributes.set("axis", -match.normalized_axes);
    attributes.set("epsilon", match.epsilon);
    Node norm{match.nodes.front()->name, standard_op ? "LayerNormalization" : "LayerNorm",
              standard_op ? "" : kFusionDomain, attributes, {match.x}, {match.output}, {}};
    norm.inputs.push_back(add_initializer(graph, norm.name + "_scale", std::move(*scale)));
    if (match.bias) norm.inputs.push_back(add_initializer(graph, norm.name + "_bias", std::move(*match.bias)));
    if (!standard_op) import_fusion_domain(graph);
    graph.replace_nodes(match.nodes, std::move(norm));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
