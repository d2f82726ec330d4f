#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// The NPU's UB fusion: a chain of elementwise nodes (each one's result read only by the next,
// every result of the same shape) becomes one asc.ElementwiseChain whose "body" attribute holds
// the original nodes, so the chain is one vector kernel and the intermediates never leave the
// unified buffer.
class ElementwiseChainFusion : public Pass {
 public:
  std::string name() const override { return "ElementwiseChainFusion"; }
  std::string category() const override { return "UBFusion"; }
  std::string description() const override {
    return "fuses chains of same-shaped elementwise nodes into one asc.ElementwiseChain vector kernel";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
