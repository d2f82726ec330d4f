#include "passes/attention_fusion.hpp"

#include <optional>
#include <vector>

#include "core/claims.hpp"
#include "core/constant_values.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/pattern_helpers.hpp"
#include "core/shape_operand.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

using Perm = std::vector<std::int64_t>;

struct Projection {
  std::string input, weight, bias;  // bias "" when absent
  std::vector<Node*> nodes;
};

// One of Q, K, V after the head split: its projection and the split's nodes.
struct Heads {
  Projection projection;
  std::vector<Node*> nodes;  // Reshape, Transposes and (Q, K) scalar Mul/Div nodes
  std::int64_t heads = 0;
  std::vector<Dim> batch_and_sequence;
  double scale = 1.0;  // product of the scalar factors applied to Q (or K) itself
};

struct AttentionFusionMatch {
  Heads q, k, v;
  float scale = 1.0f;
  std::string mask;         // "" when absent
  std::vector<Node*> core;  // Q·Kᵀ, scale, mask Add, Softmax, ·V, merge Transposes, Reshape
  std::string output;
  std::string name;  // the Softmax's, for the fused node

  std::vector<Node*> all_nodes() const {
    std::vector<Node*> nodes;
    for (const Heads* part : {&q, &k, &v}) {
      nodes.insert(nodes.end(), part->projection.nodes.begin(), part->projection.nodes.end());
      nodes.insert(nodes.end(), part->nodes.begin(), part->nodes.end());
    }
    nodes.insert(nodes.end(), core.begin(), core.end());
    return nodes;
  }
};

bool same_dim(const Dim& a, const Dim& b) {
  return (a.is_static() || !a.symbol.empty()) && a == b;
}

class AttentionMatcher {
 public:
  AttentionMatcher(const Graph& graph, const ValueUses& uses) : graph_(graph), uses_(uses) {}

  std::optional<AttentionFusionMatch> from_softmax(Node* softmax) const {
    if (!softmax_over_last_axis(*softmax)) return std::nullopt;
    AttentionFusionMatch match;
    std::vector<Node*> core;
    const std::string& scores = softmax->inputs.at(0);
    auto product = scaled_product(scores);
    if (Node* add = intermediate_producer(scores); !product && is_op(add, "Add")) {
      for (int side = 0; side < 2 && !product; ++side) {
        product = scaled_product(add->inputs.at(side));
        if (product) {
          match.mask = add->inputs.at(1 - side);
          core.push_back(add);
        }
      }
    }
    if (!product) return std::nullopt;
    core.insert(core.end(), product->nodes.begin(), product->nodes.end());
    core.push_back(softmax);

    auto q = split_heads(product->matmul->inputs.at(0), {0, 2, 1, 3}, true);
    auto k = split_heads(product->matmul->inputs.at(1), {0, 2, 3, 1}, true);
    Node* context = uses_.sole_consumer(softmax->outputs.at(0));
    if (!q || !k || !is_op(context, "MatMul") || context->inputs.at(0) != softmax->outputs[0])
      return std::nullopt;
    auto v = split_heads(context->inputs.at(1), {0, 2, 1, 3}, false);
    if (!v || q->heads != k->heads || q->heads != v->heads) return std::nullopt;
    core.push_back(context);
    // Merge heads: Transpose (0,2,1,3) then Reshape to [b, s, h·dv].
    auto merge = transpose_chain_from(context->outputs.at(0));
    if (!merge || merge->second != Perm{0, 2, 1, 3}) return std::nullopt;
    core.insert(core.end(), merge->first.begin(), merge->first.end());
    Node* reshape = uses_.sole_consumer(merge->first.back()->outputs.at(0));
    if (!is_op(reshape, "Reshape")) return std::nullopt;
    const auto merged = reshape_result_dims(graph_, uses_, *reshape);
    const auto width = value_dims(graph_, v->projection.weight);
    if (!merged || merged->size() != 3 || !width || width->size() != 2 ||
        !same_dim((*merged)[2], (*width)[1]) || !same_dim((*merged)[0], q->batch_and_sequence[0]) ||
        !same_dim((*merged)[1], q->batch_and_sequence[1]))
      return std::nullopt;
    core.push_back(reshape);
    // Scalars commute with the matrix products: (c1 Q)(c2 K)ᵀ c3 = (c1 c2 c3) Q Kᵀ.
    match.scale = static_cast<float>(product->scale * q->scale * k->scale);
    match.q = std::move(*q);
    match.k = std::move(*k);
    match.v = std::move(*v);
    match.core = std::move(core);
    match.output = reshape->outputs.at(0);
    match.name = softmax->name;
    return match;
  }

 private:
  // The producer of a value only the next pattern node reads.
  Node* intermediate_producer(const std::string& value) const {
    return uses_.sole_consumer(value) != nullptr ? uses_.producer(value) : nullptr;
  }

  struct ScaledProduct {
    Node* matmul;
    double scale;
    std::vector<Node*> nodes;
  };

  // `value` = Q·Kᵀ, optionally divided or multiplied by a scalar constant.
  std::optional<ScaledProduct> scaled_product(const std::string& value) const {
    Node* node = intermediate_producer(value);
    if (is_op(node, "MatMul")) return ScaledProduct{node, 1.0f, {node}};
    const bool divide = is_op(node, "Div");
    if (!divide && !is_op(node, "Mul")) return std::nullopt;
    for (int side = 0; side < (divide ? 1 : 2); ++side) {
      const auto c = scalar_constant(graph_, uses_, node->inputs.at(1 - side));
      Node* matmul = intermediate_producer(node->inputs.at(side));
      if (c && *c != 0 && is_op(matmul, "MatMul"))
        return ScaledProduct{matmul, divide ? 1.0 / *c : *c, {matmul, node}};
    }
    return std::nullopt;
  }

  // Walks back from `value` over Mul/Div nodes by a non-zero scalar constant (each read only by
  // the next pattern node), multiplying their factors into `scale` and collecting them.
  std::string unscaled(std::string value, double& scale, std::vector<Node*>& nodes) const {
    while (true) {
      Node* node = intermediate_producer(value);
      const bool divide = is_op(node, "Div");
      if (!divide && !is_op(node, "Mul")) return value;
      bool peeled = false;
      for (int side = 0; side < (divide ? 1 : 2) && !peeled; ++side) {
        const auto c = scalar_constant(graph_, uses_, node->inputs.at(1 - side));
        if (!c || *c == 0 || !same_known_dims(graph_, node->inputs.at(side), node->outputs.at(0))) continue;
        scale *= divide ? 1.0 / *c : *c;
        nodes.push_back(node);
        value = node->inputs.at(side);
        peeled = true;
      }
      if (!peeled) return value;
    }
  }

  bool softmax_over_last_axis(const Node& softmax) const {
    if (!is_op(&softmax, "Softmax")) return false;
    const auto rank = value_rank(graph_, softmax.inputs.at(0));
    const std::int64_t opset = graph_.opset("");
    std::int64_t axis = softmax.attributes.get_int("axis", opset >= 13 ? -1 : 1);
    if (axis == -1) return true;  // the last axis at every opset (before 13: coerced to 2-D there)
    return rank && axis == static_cast<std::int64_t>(*rank) - 1;
  }

  // Transposes from `value`'s sole reader on, each intermediate read only by the next, and
  // their composed permutation.
  std::optional<std::pair<std::vector<Node*>, Perm>> transpose_chain_from(const std::string& value) const {
    std::vector<Node*> nodes;
    Perm perm;
    Node* next = uses_.sole_consumer(value);
    while (is_op(next, "Transpose") && next->attributes.has("perm")) {
      const Perm step = next->attributes.get_ints("perm");
      if (nodes.empty()) {
        perm = step;
      } else {
        if (step.size() != perm.size()) return std::nullopt;
        Perm composed(perm.size());
        for (std::size_t i = 0; i < perm.size(); ++i) composed[i] = perm[static_cast<std::size_t>(step[i])];
        perm = std::move(composed);
      }
      nodes.push_back(next);
      next = uses_.sole_consumer(next->outputs.at(0));
    }
    if (nodes.empty()) return std::nullopt;
    return std::pair{std::move(nodes), std::move(perm)};
  }

  // `value` (read by Q·Kᵀ or ·V) = Transposes(Reshape(projection)) with the composed `perm`.
  // For Q and K (`scalable`), a scalar Mul/Div may follow the head split (torch's
  // scaled_dot_product_attention export scales Q and Kᵀ by sqrt(scale) each, others scale Q by
  // 1/sqrt(d)) or sit between the projection and the split (BART-style q_proj(x) * scaling).
  std::optional<Heads> split_heads(const std::string& scaled_value, const Perm& perm, bool scalable) const {
    double scale = 1.0;
    std::vector<Node*> scale_nodes;
    const std::string value = scalable ? unscaled(scaled_value, scale, scale_nodes) : scaled_value;
    // Walk back over the Transposes to the Reshape, then check the chain forward.
    std::string current = value;
    Node* node = intermediate_producer(current);
    while (is_op(node, "Transpose")) {
      current = node->inputs.at(0);
      node = intermediate_producer(current);
    }
    if (!is_op(node, "Reshape")) return std::nullopt;
    Node* reshape = node;
    const auto chain = transpose_chain_from(reshape->outputs.at(0));
    if (!chain || chain->first.back()->outputs.at(0) != value || chain->second != perm) return std::nullopt;
    const std::string projected_value =
        scalable ? unscaled(reshape->inputs.at(0), scale, scale_nodes) : reshape->inputs.at(0);
    auto projection = project(projected_value);
    const auto projected = value_dims(graph_, reshape->inputs.at(0));
    const auto split = reshape_result_dims(graph_, uses_, *reshape);
    if (!projection || !projected || projected->size() != 3 || !split || split->size() != 4)
      return std::nullopt;
    const Dim& width = (*projected)[2];
    const Dim& heads = (*split)[2];
    const Dim& head_size = (*split)[3];
    if (!width.is_static() || !heads.is_static() || !head_size.is_static() ||
        heads.value * head_size.value != width.value || !same_dim((*split)[0], (*projected)[0]) ||
        !same_dim((*split)[1], (*projected)[1]))
      return std::nullopt;
    Heads result{std::move(*projection), {reshape}, heads.value, {(*split)[0], (*split)[1]}, scale};
    result.nodes.insert(result.nodes.end(), chain->first.begin(), chain->first.end());
    result.nodes.insert(result.nodes.end(), scale_nodes.begin(), scale_nodes.end());
    return result;
  }

  // `value` = X·W (+ bias) with W 2-D and X 3-D.
  std::optional<Projection> project(const std::string& value) const {
    Node* node = intermediate_producer(value);
    Projection projection;
    if (node != nullptr && node->domain == kFusionDomain && node->op_type == "FusedMatMul" &&
        node->attributes.get_string("activation", "").empty()) {
      projection = {
          node->inputs.at(0), node->inputs.at(1), node->inputs.size() > 2 ? node->inputs[2] : "", {node}};
    } else {
      if (is_op(node, "Add")) {
        for (int side = 0; side < 2; ++side) {
          Node* matmul = intermediate_producer(node->inputs.at(side));
          const std::string& bias = node->inputs.at(1 - side);
          if (is_op(matmul, "MatMul") && is_constant(graph_, uses_, bias) &&
              same_known_dims(graph_, matmul->outputs.at(0), node->outputs.at(0))) {
            projection = {matmul->inputs.at(0), matmul->inputs.at(1), bias, {matmul, node}};
            break;
          }
        }
        if (projection.nodes.empty()) return std::nullopt;
      } else if (is_op(node, "MatMul")) {
        projection = {node->inputs.at(0), node->inputs.at(1), "", {node}};
      } else {
        return std::nullopt;
      }
    }
    if (value_rank(graph_, projection.input) != 3 || value_rank(graph_, projection.weight) != 2)
      return std::nullopt;
    return projection;
  }

  const Graph& graph_;
  const ValueUses& uses_;
};

}  // namespace

PassResult AttentionFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  const AttentionMatcher matcher(graph, uses);
  Claims claims;
  std::vector<AttentionFusionMatch> matches;
  for (Node* node : graph.nodes()) {
    if (!is_op(node, "Softmax")) continue;
    auto match = matcher.from_softmax(node);
    if (match && claims.take(match->all_nodes())) matches.push_back(std::move(*match));
  }

  for (const AttentionFusionMatch& match : matches) {
    ++result.match_times;
    Attributes attributes;
    attributes.set("num_heads", match.q.heads);
    attributes.set("scale", match.scale);
    Node attention{match.name, "Attention", kFusionDomain, attributes, {}, {match.output}, {}};
    for (const Heads* part : {&match.q, &match.k, &match.v})
      attention.inputs.insert(attention.inputs.end(),
                              {part->projection.input, part->projection.weight, part->projection.bias});
    if (!match.mask.empty()) attention.inputs.push_back(match.mask);
    import_fusion_domain(graph);
    graph.replace_nodes(match.all_nodes(), std::move(attention));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
