#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Folds a chain of Reshape/Flatten/Squeeze/Unsqueeze nodes (each intermediate read only by the
// next) into one Reshape to the chain's final shape, and removes a chain that ends where it
// started. Needs the final shape: static, or with one unknown dim (written as -1).
class ReshapeChainFolding : public Pass {
 public:
  std::string name() const override { return "ReshapeChainFolding"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "folds Reshape/Flatten/Squeeze/Unsqueeze chains into one Reshape (or none)";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
