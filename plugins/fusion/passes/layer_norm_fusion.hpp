#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Fuses the layer-normalisation sub-graph exporters emit before opset 17,
//   d = x − ReduceMean(x);  y = d / Sqrt(ReduceMean(d²) + ε)  [· γ]  [+ β]
// (d² as Pow(d, 2) or d·d; reductions over the trailing axes, keepdims) into ONNX's
// LayerNormalization when the graph imports opset 17, else into asc.LayerNorm (same semantics).
class LayerNormFusion : public Pass {
 public:
  std::string name() const override { return "LayerNormFusion"; }
  std::string category() const override { return "GraphFusion"; }
  std::string description() const override {
    return "fuses the ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div(/Mul/Add) pattern into LayerNormalization";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
