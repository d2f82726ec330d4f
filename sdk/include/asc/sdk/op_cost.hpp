// Cost-fact helpers for operator definitions (since SDK 0.3; were ops_builtin's own): bytes and
// elements of values, elementwise / data-movement / metadata costs.
#pragma once

#include <cstdint>

#include "asc/sdk/op_registry.hpp"

namespace asc {

// Bytes of a value with a static shape (0 when the shape is not static).
std::int64_t value_bytes(const ValueInfo* info);
std::int64_t value_elements(const ValueInfo* info);
std::int64_t input_bytes(const CostContext& context);
std::int64_t output_bytes(const CostContext& context);

// Reads every input once, writes every output once, `flops_per_element` per output element.
CostFacts elementwise_cost(const CostContext& context, double flops_per_element, ComputeUnit unit = ComputeUnit::Vector);
// Pure data movement (Transpose, Concat, Gather, ...): reads inputs, writes outputs, no arithmetic.
CostFacts data_movement_cost(const CostContext& context);
// Metadata only (Reshape, Shape, Squeeze, ...): nothing moves on the device.
CostFacts metadata_cost(const CostContext& context);

}  // namespace asc
