// ConvInteger (opset 11-17): int8/uint8 convolution with zero points, int32 result.
//
// The zero points are subtracted first and the products summed in double: every partial sum of
// 8-bit products stays far below 2^53, so the result is exact, and padding (which ONNX fills with
// the zero point) becomes zero.
#include <cmath>
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include "conv/conv_common.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void conv_integer_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

void conv_integer_infer(InferenceContext& context) {
  infer_conv_output(context, DType::Int32);
}

void check_8bit(const Node& node, const Tensor& tensor, const char* name) {
  if (tensor.dtype() != DType::Int8 && tensor.dtype() != DType::UInt8)
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": ConvInteger input " + name +
                                                         " is " + std::string(dtype_name(tensor.dtype())) +
                                                         ", expected int8 or uint8");
}

// Zero points of input `index` (same dtype as `of`), one per `count` entries; 0 when absent.
std::vector<double> conv_integer_zero_points(const KernelContext& context, std::size_t index,
                                             const Tensor& of, std::int64_t count, const char* name) {
  if (!context.has_input(index)) return std::vector<double>(static_cast<std::size_t>(count), 0.0);
  const Tensor& points = context.input(index);
  if (points.dtype() != of.dtype())
    conv_integer_fail(context.node, std::string(name) + " must have the dtype of its input");
  const std::vector<double> values = points.to_doubles();
  if (values.size() == 1) return std::vector<double>(static_cast<std::size_t>(count), values[0]);
  if (static_cast<std::int64_t>(values.size()) != count || points.rank() != 1)
    conv_integer_fail(context.node, std::string(name) + " has shape " + shape_to_string(points.shape()) +
                                        ", expected a scalar" +
                                        (count > 1 ? " or [" + std::to_string(count) + "]" : std::string()));
  return values;
}

void conv_integer_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x = context.input(0);
  const Tensor& w = context.input(1);
  check_8bit(node, x, "x");
  check_8bit(node, w, "w");
  const ConvGeometry geometry = conv_geometry(node, x.shape(), w.shape());
  const double x_zero = conv_integer_zero_points(context, 2, x, 1, "x_zero_point")[0];
  const std::vector<double> w_zero =
      conv_integer_zero_points(context, 3, w, geometry.out_channels, "w_zero_point");

  std::vector<double> x_shifted = x.to_doubles();
  for (double& value : x_shifted) value -= x_zero;
  std::vector<double> w_shifted = w.to_doubles();
  const std::int64_t per_channel = geometry.out_channels == 0 ? 0 : w.numel() / geometry.out_channels;
  for (std::int64_t i = 0; i < w.numel(); ++i) w_shifted[i] -= w_zero[i / per_channel];

  const Shape y_shape = conv_output_shape(geometry, x.shape().size() - 2);
  std::vector<double> sums(static_cast<std::size_t>(num_elements(y_shape)));
  convolve<double>(geometry, x_shifted.data(), w_shifted.data(), nullptr, sums.data(), context.threads);
  Tensor y(DType::Int32, y_shape);
  std::int32_t* out = y.data<std::int32_t>();
  for (std::size_t i = 0; i < sums.size(); ++i) out[i] = static_cast<std::int32_t>(std::llround(sums[i]));
  context.outputs[0] = y;
}

}  // namespace

ASC_REGISTER_OP("", "ConvInteger", 11, 17, conv_integer_infer, conv_integer_compute, conv_cost);

}  // namespace asc::ops
