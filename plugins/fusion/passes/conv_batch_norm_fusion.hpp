#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Folds an inference-mode BatchNormalization into the Conv before it (the Conv's output read by
// nothing else; all parameters constant): W' = W·s, B' = (B − mean)·s + bias with
// s = scale / sqrt(var + epsilon), computed in double. A pure rewrite: the result is a Conv.
class ConvBatchNormFusion : public Pass {
 public:
  std::string name() const override { return "ConvBatchNormFusion"; }
  std::string category() const override { return "GraphFusion"; }
  std::string description() const override { return "folds BatchNormalization into the preceding Conv's weights"; }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
