#pragma once

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

// Re-infers every value's type with the registered inference functions, keeping whatever is
// better known (see core/type_refinement.hpp). Reshape targets computed from Shape() are read
// symbolically (core/shape_operand.hpp), so with a dynamic batch the dims after a reshape are
// ["batch", "seq", 4, 32] rather than unknown, and shape-checking fusions still apply.
// match_times and effect_times both count the nodes whose output types improved.
class ShapeInference : public Pass {
 public:
  std::string name() const override { return "ShapeInference"; }
  std::string category() const override { return "Cleanup"; }
  std::string description() const override {
    return "re-infers value types (static or symbolic dims) where the parser's shape inference stopped";
  }
  PassResult run(Graph& graph, const PassContext& context) const override;
};

}  // namespace asc::fusion
