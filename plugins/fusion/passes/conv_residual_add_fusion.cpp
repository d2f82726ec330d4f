#include "passes/conv_residual_add_fusion.hpp"

#include <unordered_map>
#include <vector>

#include "core/claims.hpp"
#include "core/constant_values.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/pattern_helpers.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

struct ConvResidualAddFusionMatch {
  Node* conv;
  Node* add;
  std::string residual;
};

// A Conv whose result is read by nothing but `add`.
Node* conv_feeding(const ValueUses& uses, const std::string& value, const Node* add) {
  Node* producer = uses.producer(value);
  return is_op(producer, "Conv") && uses.sole_consumer(value) == add ? producer : nullptr;
}

}  // namespace

PassResult ConvResidualAddFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  std::unordered_map<const Node*, std::size_t> position;
  for (const Node* node : graph.nodes()) position.emplace(node, position.size());

  Claims claims;
  std::vector<ConvResidualAddFusionMatch> matches;
  for (Node* add : graph.nodes()) {
    if (!is_op(add, "Add") || add->inputs.size() != 2 || add->inputs[0] == add->inputs[1]) continue;
    Node* left = conv_feeding(uses, add->inputs[0], add);
    Node* right = conv_feeding(uses, add->inputs[1], add);
    if (left == nullptr && right == nullptr) continue;
    Node* conv = left == nullptr || (right != nullptr && position[right] > position[left]) ? right : left;
    const std::string residual = *other_operand(*add, conv->outputs[0]);
    if (is_constant(graph, uses, residual)) continue;
    if (claims.take({conv, add})) matches.push_back({conv, add, residual});
  }

  for (const ConvResidualAddFusionMatch& match : matches) {
    ++result.match_times;
    const std::string& output = match.add->outputs.at(0);
    if (!same_known_dims(graph, match.conv->outputs[0], output) || !same_known_dims(graph, match.residual, output))
      continue;
    const Node& conv = *match.conv;
    Node fused{conv.name, "FusedConv", kFusionDomain, conv.attributes, conv.inputs, {output}, {}};
    fused.inputs.resize(3);  // X, W, B ("" when absent)
    fused.inputs.push_back(match.residual);
    import_fusion_domain(graph);
    graph.replace_nodes(std::vector<Node*>{match.conv, match.add}, std::move(fused));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
