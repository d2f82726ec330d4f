#include "passes/matmul_bias_add_fusion.hpp"

#include <vector>

#include "core/claims.hpp"
#include "core/constant_values.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/pattern_helpers.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

struct MatmulBiasAddFusionMatch {
  Node* matmul;
  Node* add;
  std::string bias;
};

}  // namespace

PassResult MatMulBiasAddFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  Claims claims;
  std::vector<MatmulBiasAddFusionMatch> matches;
  for (Node* matmul : graph.nodes()) {
    if (!is_op(matmul, "MatMul")) continue;
    Node* add = uses.sole_consumer(matmul->outputs.at(0));
    if (!is_op(add, "Add")) continue;
    const auto bias = other_operand(*add, matmul->outputs[0]);
    if (!bias || !is_constant(graph, uses, *bias)) continue;
    if (claims.take({matmul, add})) matches.push_back({matmul, add, *bias});
  }

  for (const MatmulBiasAddFusionMatch& match : matches) {
    ++result.match_times;
    const std::string& output = match.add->outputs.at(0);
    // The bias must not broadcast the product to a larger shape.
    if (!same_known_dims(graph, match.matmul->outputs[0], output)) continue;
    Node fused{match.matmul->name, "FusedMatMul", kFusionDomain, {}, {match.matmul->inputs.at(0), match.matmul->inputs.at(1), match.bias},
               {output}, {}};
    import_fusion_domain(graph);
    graph.replace_nodes(std::vector<Node*>{match.matmul, match.add}, std::move(fused));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
