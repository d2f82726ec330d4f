// Cost facts for operators whose work scales with the input rather than the output (reductions,
// softmax, scans, top-k): flops per element of input 0.
#pragma once

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

CostFacts per_input_element_cost(const CostContext& context, double flops_per_element,
                                 ComputeUnit unit = ComputeUnit::Vector);

}  // namespace asc::ops
