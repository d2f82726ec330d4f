#include "quantization/qlinear_output.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <asc/sdk/error.hpp>

namespace asc::ops {
namespace {

template <class Q> void store(std::span<const double> real, const QuantizedOutput& output, Q* y) {
  constexpr double low = std::numeric_limits<Q>::lowest();
  constexpr double high = std::numeric_limits<Q>::max();
  // nearbyint rounds half to even in the default rounding mode, as ONNX requires.
  for (std::size_t i = 0; i < real.size(); ++i)
    y[i] = static_cast<Q>(std::clamp(std::nearbyint(real[i] / output.scale) + output.zero_point, low, high));
}

}  // namespace

void require_8bit(const Node& node, const Tensor& tensor, const char* name) {
  if (tensor.dtype() != DType::Int8 && tensor.dtype() != DType::UInt8)
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": input '" + name + "' is " +
                                                         std::string(dtype_name(tensor.dtype())) +
                                                         ", expected int8 or uint8");
}

std::vector<double> per_channel_parameter(const KernelContext& context, std::size_t index, std::int64_t count,
                                          const char* name, const Tensor* of) {
  const Node& node = context.node;
  const Tensor& parameter = context.input(index);
  if (of != nullptr && parameter.dtype() != of->dtype())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": '" + name + "' is " +
                                                std::string(dtype_name(parameter.dtype())) + " but its operand is " +
                                                std::string(dtype_name(of->dtype())));
  if (of == nullptr && !is_floating(parameter.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": '" + name + "' is " +
                                                         std::string(dtype_name(parameter.dtype())) + ", expected float");
  const std::vector<double> values = parameter.to_doubles();
  if (values.size() == 1) return std::vector<double>(static_cast<std::size_t>(count), values[0]);
  if (parameter.rank() != 1 || parameter.numel() != count)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": '" + name + "' has shape " +
                                                shape_to_string(parameter.shape()) + ", expected a scalar or [" +
                                                std::to_string(count) + "]");
  return values;
}

QuantizedOutput quantized_output(const KernelContext& context, std::size_t scale_index, std::size_t zero_point_index) {
  const Tensor& zero_point = context.input(zero_point_index);
  require_8bit(context.node, zero_point, "y_zero_point");
  QuantizedOutput output;
  output.scale = per_channel_parameter(context, scale_index, 1, "y_scale")[0];
  output.zero_point = per_channel_parameter(context, zero_point_index, 1, "y_zero_point", &zero_point)[0];
  output.dtype = zero_point.dtype();
  if (!(output.scale > 0))
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": y_scale must be positive");
  return output;
}

Tensor quantize_output(std::span<const double> real, const Shape& shape, const QuantizedOutput& output) {
  Tensor y(output.dtype, shape);
  if (output.dtype == DType::UInt8) store(real, output, y.data<std::uint8_t>());
  else store(real, output, y.data<std::int8_t>());
  return y;
}

}  // namespace asc::ops
