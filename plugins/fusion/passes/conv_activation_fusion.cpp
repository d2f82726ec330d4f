#include "passes/conv_activation_fusion.hpp"

#include <vector>

#include "core/activation_match.hpp"
#include "core/claims.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

bool is_conv_without_activation(const Node& node) {
  if (is_op(&node, "Conv")) return true;
  return node.domain == kFusionDomain && node.op_type == "FusedConv" &&
         node.attributes.get_string("activation", "").empty();
}

struct ConvActivationFusionMatch {
  Node* conv;
  ActivationMatch activation;
};

}  // namespace

PassResult ConvActivationFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  Claims claims;
  std::vector<ConvActivationFusionMatch> matches;
  for (Node* node : graph.nodes()) {
    if (!is_conv_without_activation(*node)) continue;
    auto activation = match_activation(graph, uses, node->outputs.at(0));
    if (!activation) continue;
    std::vector<Node*> group{node};
    group.insert(group.end(), activation->nodes.begin(), activation->nodes.end());
    if (claims.take(group)) matches.push_back({node, std::move(*activation)});
  }

  for (ConvActivationFusionMatch& match : matches) {
    ++result.match_times;
    const Node& conv = *match.conv;
    Node fused{conv.name, "FusedConv", kFusionDomain, conv.attributes, conv.inputs, {match.activation.output}, {}};
    set_activation(fused, match.activation);
    std::vector<Node*> group{match.conv};
    group.insert(group.end(), match.activation.nodes.begin(), match.activation.nodes.end());
    import_fusion_domain(graph);
    graph.replace_nodes(group, std::move(fused));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
