// What QLinearConv and QLinearMatMul share: checking 8-bit operands and their zero points, and
// quantizing the real-valued result into y_zero_point's type:
//   y = saturate(round_half_even(real / y_scale) + y_zero_point).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

// Throws OperatorDtypeUnsupported naming the node and `name` unless `tensor` is int8 or uint8.
void require_8bit(const Node& node, const Tensor& tensor, const char* name);

// Input `index` (a scale or zero point) as `count` values: one value repeated, or a 1-D tensor of
// `count`. Zero points (`of` not null) must have the dtype of their operand `of`.
std::vector<double> per_channel_parameter(const KernelContext& context, std::size_t index, std::int64_t count,
                                          const char* name, const Tensor* of = nullptr);

// y_scale (input `scale_index`) and y_zero_point (input `zero_point_index`, int8 or uint8).
struct QuantizedOutput {
  double scale = 1;
  double zero_point = 0;
  DType dtype = DType::UInt8;
};
QuantizedOutput quantized_output(const KernelContext& context, std::size_t scale_index, std::size_t zero_point_index);

// A tensor of `shape` in output.dtype quantizing `real` (row-major values of that shape).
Tensor quantize_output(std::span<const double> real, const Shape& shape, const QuantizedOutput& output);

}  // namespace asc::ops
