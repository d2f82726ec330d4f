#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Fuses MatMul + Add of a constant that broadcasts onto the product without changing its shape
// (a bias, as Gemm's C) into asc.FusedMatMul(A, B, Bias).
class MatMulBiasAddFusion : public Pass {
 public:
  std::string name() const override { return "MatMulBiasAddFusion"; }
  std::string category() const override { return "GraphFusion"; }
  std::string description() const override { return "fuses MatMul + constant bias Add into asc.FusedMatMul"; }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
