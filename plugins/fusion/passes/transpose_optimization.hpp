#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Merges chains of Transpose nodes (each intermediate read only by the next) into one with the
// composed permutation, removes transposes whose (composed) permutation is the identity, and
// turns those that move only axes of size 1 (ViT's [1, 197, 768] <-> [197, 1, 768]) into a
// Reshape, which shares the input's buffer instead of copying it.
class TransposeOptimization : public Pass {
 public:
  std::string name() const override { return "TransposeOptimization"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "composes consecutive Transposes, removes identity permutations and turns those moving only size-1 axes into Reshapes";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
