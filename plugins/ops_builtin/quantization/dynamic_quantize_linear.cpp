// DynamicQuantizeLinear: uint8 quantization of a float32 tensor with scale and zero point
// computed from its range (always including 0), rounding half to even:
//   scale = (max(0, max x) - min(0, min x)) / 255, zero_point = saturate(round(-min / scale)).
#include <algorithm>
#include <cmath>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_dynamic_quantize_linear(InferenceContext& context) {
  set_output(context, 0, DType::UInt8, input_dims(context, 0));
  if (context.outputs.size() > 1) set_output(context, 1, DType::Float32, Dims{});
  if (context.outputs.size() > 2) set_output(context, 2, DType::UInt8, Dims{});
}

void compute_dynamic_quantize_linear(KernelContext& context) {
  const Tensor& x = context.input(0);
  if (x.dtype() != DType::Float32)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                context.node.describe() + ": input type " + std::string(dtype_name(x.dtype())) + " (need float32)");
  const std::span<const float> values = x.span<float>();
  float low = 0.0f;
  float high = 0.0f;
  for (const float v : values) {
    low = std::min(low, v);
    high = std::max(high, v);
  }
  const float scale = (high - low) / 255.0f;
  // An all-zero input has scale 0: every value quantizes to the zero point 0.
  const float zero_point = scale == 0.0f ? 0.0f : std::clamp(std::nearbyint(0.0f - low / scale), 0.0f, 255.0f);
  Tensor y(DType::UInt8, x.shape());
  std::uint8_t* out = y.data<std::uint8_t>();
  for (std::size_t n = 0; n < values.size(); ++n) {
    const float q = scale == 0.0f ? zero_point : std::nearbyint(values[n] / scale) + zero_point;
    out[n] = static_cast<std::uint8_t>(std::clamp(q, 0.0f, 255.0f));
  }
  context.outputs[0] = std::move(y);
  if (context.outputs.size() > 1) context.outputs[1] = Tensor::scalar<float>(scale);
  if (context.outputs.size() > 2) context.outputs[2] = Tensor::scalar<std::uint8_t>(static_cast<std::uint8_t>(zero_point));
}

// Two passes over the input (range, then quantize), about four flops per element.
CostFacts dynamic_quantize_cost(const CostContext& context) { return elementwise_cost(context, 4); }

}  // namespace

ASC_REGISTER_OP("", "DynamicQuantizeLinear", 11, 17, infer_dynamic_quantize_linear, compute_dynamic_quantize_linear,
                dynamic_quantize_cost);

}  // namespace asc::ops
