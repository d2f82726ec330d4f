#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Removes nodes whose outputs reach no graph output, and initializers nobody reads.
class DeadNodeElimination : public Pass {
 public:
  std::string name() const override { return "DeadNodeElimination"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "removes nodes whose results reach no graph output, and unused initializers";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
