#include "common/reduction_cost.hpp"

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {

CostFacts per_input_element_cost(const CostContext& context, double flops_per_element, ComputeUnit unit) {
  const double elements = context.inputs.empty() ? 0.0 : static_cast<double>(value_elements(context.inputs[0]));
  return {flops_per_element * elements, input_bytes(context), output_bytes(context), unit};
}

}  // namespace asc::ops
