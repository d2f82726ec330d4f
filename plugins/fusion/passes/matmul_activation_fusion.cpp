#include "passes/matmul_activation_fusion.hpp"

#include <vector>

#include "core/activation_match.hpp"
#include "core/claims.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

// The fused operator a product node becomes with an activation; empty when it cannot take one.
std::string fused_op_for(const Node& node) {
  if (is_op(&node, "MatMul")) return "FusedMatMul";
  if (is_op(&node, "Gemm")) return "FusedGemm";
  const bool fused_product = node.domain == kFusionDomain && (node.op_type == "FusedMatMul" || node.op_type == "FusedGemm");
  return fused_product && node.attributes.get_string("activation", "").empty() ? node.op_type : "";
}

struct MatmulActivationFusionMatch {
  Node* product;
  std::string fused_op;
  ActivationMatch activation;
};

}  // namespace

PassResult MatMulActivationFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  Claims claims;
  std::vector<MatmulActivationFusionMatch> matches;
  for (Node* node : graph.nodes()) {
    const std::string fused_op = fused_op_for(*node);
    if (fused_op.empty() || node->outputs.size() != 1) continue;
    auto activation = match_activation(graph, uses, node->outputs[0]);
    if (!activation) activation = match_scalar_scale(graph, uses, node->outputs[0]);
    if (!activation) continue;
    std::vector<Node*> group{node};
    group.insert(group.end(), activation->nodes.begin(), activation->nodes.end());
    if (claims.take(group)) matches.push_back({node, fused_op, std::move(*activation)});
  }

  for (MatmulActivationFusionMatch& match : matches) {
    ++result.match_times;
    const Node& product = *match.product;
    Node fused{product.name, match.fused_op, kFusionDomain, product.attributes, product.inputs, {match.activation.output}, {}};
    set_activation(fused, match.activation);
    std::vector<Node*> group{match.product};
    group.insert(group.end(), match.activation.nodes.begin(), match.activation.nodes.end());
    import_fusion_domain(graph);
    graph.replace_nodes(group, std::move(fused));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
