#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Evaluates, once, every node whose inputs are all constants, with the registered reference
// kernels, and replaces it by initializers holding its results (same value names). Shape and
// Size of a value whose shape is static fold too, so the Shape/Gather/Unsqueeze/Concat chains
// torch.onnx emits for reshapes collapse when the input shape is fixed. Never folds random
// generators, nodes with subgraphs, nodes writing graph outputs, or results over 16 MiB.
// Nodes that stay get their output types re-inferred in the same sweep (the parser's shape
// inference stops at Reshape targets computed from Shape()), so later Shape nodes fold too.
class ConstantFolding : public Pass {
 public:
  // Results larger than this stay computed at run time (a model file should not balloon).
  static constexpr std::size_t kMaxFoldedBytes = std::size_t{16} << 20;

  std::string name() const override { return "ConstantFolding"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "evaluates nodes whose inputs are constants (and Shape/Size of static shapes) into initializers";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
