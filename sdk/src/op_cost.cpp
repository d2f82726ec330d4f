#include "asc/sdk/op_cost.hpp"

namespace asc {

std::int64_t value_elements(const ValueInfo* info) {
  if (info == nullptr || !info->has_static_shape()) return 0;
  return num_elements(info->static_shape());
}

std::int64_t value_bytes(const ValueInfo* info) {
  if (info == nullptr) return 0;
  return value_elements(info) * static_cast<std::int64_t>(dtype_size(info->dtype));
}

std::int64_t input_bytes(const CostContext& context) {
  std::int64_t total = 0;
  for (const ValueInfo* info : context.inputs) total += value_bytes(info);
  return total;
}

std::int64_t output_bytes(const CostContext& context) {
  std::int64_t total = 0;
  for (const ValueInfo* info : context.outputs) total += value_bytes(info);
  return total;
}

CostFacts elementwise_cost(const CostContext& context, double flops_per_element, ComputeUnit unit) {
  std::int64_t elements = 0;
  for (const ValueInfo* info : context.outputs) elements += value_elements(info);
  return {flops_per_element * static_cast<double>(elements), input_bytes(context), output_bytes(context), unit};
}

CostFacts data_movement_cost(const CostContext& context) {
  return {0.0, input_bytes(context), output_bytes(context), ComputeUnit::Vector};
}

CostFacts metadata_cost(const CostContext&) { return {0.0, 0, 0, ComputeUnit::None}; }

}  // namespace asc
