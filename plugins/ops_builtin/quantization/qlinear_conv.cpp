// QLinearConv (opset 10, registered 11-17): convolution of quantized x and w (int8/uint8) with
// per-tensor x and y parameters and per-tensor or per-output-channel w parameters, plus an
// optional int32 bias quantized at x_scale * w_scale:
//   y = saturate(round_half_even((conv(x - x_zp, w - w_zp) + B) * x_scale * w_scale / y_scale) + y_zp)
// The shifted products are summed exactly in double; padding (ONNX pads with x_zp) becomes zero.
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "conv/conv_common.hpp"
#include "quantization/qlinear_output.hpp"

namespace asc::ops {
namespace {

// Input positions of the schema.
constexpr std::size_t kX = 0, kXScale = 1, kXZero = 2, kW = 3, kWScale = 4, kWZero = 5,
                      kQlinearConvYScale = 6, kQlinearConvYZero = 7, kBias = 8;

void qlinear_conv_infer(InferenceContext& context) {
  const ValueInfo& y_zero_point = context.input(kQlinearConvYZero);
  // Conv's inference reads x and w as inputs 0 and 1.
  InferenceContext conv{context.node, context.opset, {context.inputs[kX], context.inputs[kW]}, {}, context.outputs};
  infer_conv_output(conv, y_zero_point.dtype);
  context.outputs = std::move(conv.outputs);
}

void qlinear_conv_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x = context.input(kX);
  const Tensor& w = context.input(kW);
  require_8bit(node, x, "x");
  require_8bit(node, w, "w");
  const ConvGeometry geometry = conv_geometry(node, x.shape(), w.shape());
  const std::int64_t channels = geometry.out_channels;
  const double x_scale = per_channel_parameter(context, kXScale, 1, "x_scale")[0];
  const double x_zero = per_channel_parameter(context, kXZero, 1, "x_zero_point", &x)[0];
  const std::vector<double> w_scale = per_channel_parameter(context, kWScale, channels, "w_scale");
  const std::vector<double> w_zero = per_channel_parameter(context, kWZero, channels, "w_zero_point", &w);
  const QuantizedOutput output = quantized_output(context, kQlinearConvYScale, kQlinearConvYZero);
  std::vector<double> bias(static_cast<std::size_t>(channels), 0.0);
  if (context.has_input(kBias)) {
    const Tensor& b = context.input(kBias);
    if (b.dtype() != DType::Int32 || b.rank() != 1 || b.numel() != channels)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": B is " + std::string(dtype_name(b.dtype())) +
                                                  shape_to_string(b.shape()) + ", expected int32[" +
                                                  std::to_string(channels) + "]");
    bias = b.to_doubles();
  }

  std::vector<double> x_shifted = x.to_doubles();
  for (double& value : x_shifted) value -= x_zero;
  std::vector<double> w_shifted = w.to_doubles();
  const std::int64_t per_channel = channels == 0 ? 0 : w.numel() / channels;
  for (std::int64_t i = 0; i < w.numel(); ++i) w_shifted[static_cast<std::size_t>(i)] -= w_zero[static_cast<std::size_t>(i / per_channel)];

  const Shape y_shape = conv_output_shape(geometry, x.shape().size() - 2);
  std::vector<double> real(static_cast<std::size_t>(num_elements(y_shape)));
  convolve<double>(geometry, x_shifted.data(), w_shifted.data(), bias.data(), real.data(), context.threads);
  const std::int64_t plane = geometry.window.output_size();
  for (std::size_t i = 0; i < real.size(); ++i) {
    const auto channel = static_cast<std::size_t>((static_cast<std::int64_t>(i) / plane) % channels);
    real[i] *= x_scale * w_scale[channel];
  }
  context.outputs[0] = quantize_output(real, y_shape, output);
}

// Cube: Conv's MACs; every input (scales and zero points too) read once.
CostFacts qlinear_conv_cost(const CostContext& context) {
  if (context.inputs.size() <= kW) return {0.0, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
  const CostContext conv{context.node, {context.inputs[kX], context.inputs[kW]}, context.outputs};
  CostFacts facts = conv_cost(conv);
  facts.bytes_read = input_bytes(context);
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "QLinearConv", 11, 17, qlinear_conv_infer, qlinear_conv_compute, qlinear_conv_cost);

}  // namespace asc::ops
