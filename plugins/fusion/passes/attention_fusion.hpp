#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Scope fusion of multi-head self/cross attention into asc.Attention:
//   Q/K/V = X·W (+ bias)            MatMul [+ Add] or asc.FusedMatMul without activation
//   split heads                     Reshape [b,s,h,d] then Transpose (0,2,1,3); K (0,2,3,1)
//   scores = Q·Kᵀ  (÷c or ·c)  (+ mask)  -> Softmax over the last axis
//   context = scores·V -> Transpose (0,2,1,3) -> Reshape [b,s,h·d]
// Transposes may come as chains whose composition is the permutation above. Reshape targets
// may be computed from Shape() (dynamic batch): see core/shape_operand.hpp. Runs only with
// enable_scope_fusion (as ATC's scope fusion passes).
class AttentionFusion : public Pass {
 public:
  std::string name() const override { return "AttentionFusion"; }
  std::string category() const override { return "GraphFusion"; }
  std::string description() const override {
    return "scope fusion: Q/K/V projections, head split, scaled softmax attention and head merge into asc.Attention";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
