// QuantizeLinear: y = saturate(round_half_even(x / scale) + zero_point) into uint8 (the default)
// or int8, the zero point's type. Per-axis scales from opset 13.
#include <algorithm>
#include <cmath>
#include <limits>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "quantization/quantization_axis.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

DType quantized_dtype(DType zero_point, bool present, const Node& node) {
  if (!present) return DType::UInt8;
  if (zero_point != DType::UInt8 && zero_point != DType::Int8)
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": zero point type " +
                                                         std::string(dtype_name(zero_point)) + " (need uint8 or int8)");
  return zero_point;
}

void infer_quantize_linear(InferenceContext& context) {
  const bool has_zero_point = context.has_input(2);
  const DType dtype = quantized_dtype(has_zero_point ? context.input(2).dtype : DType::UInt8, has_zero_point, context.node);
  set_output(context, 0, dtype, input_dims(context, 0));
}

template <class Q> void quantize(const std::vector<float>& x, const std::vector<float>& scales,
                                 const std::vector<float>& zero_points, const QuantizationAxis& axis, Q* y) {
  constexpr float low = std::numeric_limits<Q>::lowest();
  constexpr float high = std::numeric_limits<Q>::max();
  for (std::size_t n = 0; n < x.size(); ++n) {
    const auto p = static_cast<std::size_t>(axis.parameter(static_cast<std::int64_t>(n)));
    const float value = std::nearbyint(x[n] / scales[p]) + zero_points[p];
    y[n] = static_cast<Q>(std::clamp(value, low, high));
  }
}

std::vector<float> as_floats(const Tensor& tensor) {
  const std::vector<double> values = tensor.to_doubles();
  return {values.begin(), values.end()};
}

void compute_quantize_linear(KernelContext& context) {
  const Tensor& x = context.input(0);
  const QuantizationAxis axis = quantization_axis(context);
  const std::vector<float> scales = as_floats(context.input(1));
  const bool has_zero_point = context.has_input(2);
  const DType dtype = quantized_dtype(has_zero_point ? context.input(2).dtype() : DType::UInt8, has_zero_point, context.node);
  const std::vector<float> zero_points = has_zero_point ? as_floats(context.input(2)) : std::vector<float>(scales.size(), 0.0f);
  Tensor y(dtype, x.shape());
  if (dtype == DType::UInt8) quantize(as_floats(x), scales, zero_points, axis, y.data<std::uint8_t>());
  else quantize(as_floats(x), scales, zero_points, axis, y.data<std::int8_t>());
  context.outputs[0] = std::move(y);
}

CostFacts quantize_cost(const CostContext& context) { return elementwise_cost(context, 2); }

}  // namespace

ASC_REGISTER_OP("", "QuantizeLinear", 11, 17, infer_quantize_linear, compute_quantize_linear, quantize_cost);

}  // namespace asc::ops
