#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Removes Identity nodes, and Dropout nodes in inference form (no mask consumer, no training
// mode), rewiring their consumers to the input. The removed node's provenance moves to the
// producer of its input, so the original node stays traceable.
class IdentityElimination : public Pass {
 public:
  std::string name() const override { return "IdentityElimination"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "removes Identity and inference-mode Dropout nodes, keeping their provenance on the producer";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
