#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Fuses the GELU sub-graphs exporters emit into asc.Gelu:
//   erf form   0.5·x·(1 + erf(x/√2))                      (Div by √2 or Mul by 1/√2)
//   tanh form  0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))  (x³ as Pow(x,3) or x·x·x)
// with the final products in any of the orders (x·p)·0.5, x·(p·0.5), (x·0.5)·p.
class GeluFusion : public Pass {
 public:
  std::string name() const override { return "GeluFusion"; }
  std::string category() const override { return "GraphFusion"; }
  std::string description() const override { return "fuses the erf and tanh GELU sub-graphs into asc.Gelu"; }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
