// Helpers the normalisation kernels share: per-channel parameters, the output shape rule, and
// the normalisation cost.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

// The values of a per-channel parameter `name` (shape [channels]) as doubles; throws
// InvalidOperator naming the node otherwise.
std::vector<double> channel_values(const Node& node, const Tensor& parameter, std::int64_t channels,
                                   const std::string& name);

// Output 0 has input 0's dtype and shape.
void infer_same_as_input(InferenceContext& context);

// Vector: `flops_per_element` per element of input 0; reads every input, writes every output.
CostFacts normalization_cost(const CostContext& context, double flops_per_element);

}  // namespace asc::ops
