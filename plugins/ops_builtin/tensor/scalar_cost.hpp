// NonZero and Unique are control-heavy: they move data like a gather but run on the Scalar unit.
#pragma once

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {

inline CostFacts scalar_data_movement_cost(const CostContext& context) {
  CostFacts facts = data_movement_cost(context);
  facts.unit = ComputeUnit::Scalar;
  return facts;
}

}  // namespace asc::ops
