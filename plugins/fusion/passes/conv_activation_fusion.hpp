#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Fuses the activation after a Conv or an asc.FusedConv (Relu, Clip/Relu6, LeakyRelu, Sigmoid,
// HardSigmoid, HardSwish, Tanh, SiLU = x·sigmoid(x), asc.Gelu) into an asc.FusedConv with an
// "activation" attribute.
class ConvActivationFusion : public Pass {
 public:
  std::string name() const override { return "ConvActivationFusion"; }
  std::string category() const override { return "UBFusion"; }
  std::string description() const override {
    return "fuses the activation after a Conv into asc.FusedConv (Relu, Clip, LeakyRelu, Sigmoid, HardSwish, SiLU, ...)";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
