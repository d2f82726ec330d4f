#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Fuses an Add of a same-shaped tensor (a residual connection) into the Conv before it:
// Conv + Add(·, R) -> asc.FusedConv(X, W, B, R). When both operands come from Convs, the later
// one in the graph takes the Add. Constant addends are ConvBiasAddFusion's.
class ConvResidualAddFusion : public Pass {
 public:
  std::string name() const override { return "ConvResidualAddFusion"; }
  std::string category() const override { return "UBFusion"; }
  std::string description() const override {
    return "fuses a residual Add into the preceding Conv (asc.FusedConv with a residual input)";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
