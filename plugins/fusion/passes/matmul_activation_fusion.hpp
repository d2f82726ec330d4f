#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Fuses the activation after a MatMul, an asc.FusedMatMul or a Gemm (the kinds of
// ConvActivationFusion, asc.Gelu included), or else a scaling by a constant (Div / Mul, as the
// attention scores' 1/sqrt(d)), into asc.FusedMatMul / asc.FusedGemm.
class MatMulActivationFusion : public Pass {
 public:
  std::string name() const override { return "MatMulActivationFusion"; }
  std::string category() const override { return "UBFusion"; }
  std::string description() const override {
    return "fuses the activation or constant scaling after a MatMul or Gemm into asc.FusedMatMul / asc.FusedGemm";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
