#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Folds an Add of a per-channel constant (shape [C,1,1], [1,C,1,1], a scalar, ...) after a Conv
// into the Conv's bias. A pure rewrite: the result is a Conv.
class ConvBiasAddFusion : public Pass {
 public:
  std::string name() const override { return "ConvBiasAddFusion"; }
  std::string category() const override { return "GraphFusion"; }
  std::string description() const override { return "folds a per-channel constant Add after a Conv into its bias"; }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
