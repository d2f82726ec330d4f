#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Merges chains of Transpose nodes (each intermediate read only by the next) into one with the
// composed permutation, and removes transposes whose (composed) permutation is the identity.
class TransposeOptimization : public Pass {
 public:
  std::string name() const override { return "TransposeOptimization"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "composes consecutive Transposes and removes identity permutations";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
