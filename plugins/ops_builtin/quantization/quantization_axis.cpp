#include "quantization/quantization_axis.hpp"

#include <asc/sdk/error.hpp>

#include "common/shape_utils.hpp"

namespace asc::ops {

QuantizationAxis quantization_axis(const KernelContext& context) {
  const Node& node = context.node;
  const Shape& input = context.input(0).shape();
  const Tensor& scale = context.input(1);
  if (context.has_input(2) && context.input(2).shape() != scale.shape() &&
      !(context.input(2).numel() == 1 && scale.numel() == 1))
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": zero point " +
                                                shape_to_string(context.input(2).shape()) + " does not match scale " +
                                                shape_to_string(scale.shape()));
  if (scale.numel() == 1 && scale.rank() <= 1) return {};
  if (context.opset < 13 || scale.rank() != 1)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": scale " + shape_to_string(scale.shape()) +
                                                " must be a scalar" + (context.opset < 13 ? "" : " or 1-D"));
  const auto axis = static_cast<std::size_t>(
      normalize_axis(context.attrs().get_int("axis", 1), static_cast<std::int64_t>(input.size()), node));
  if (input[axis] != scale.numel())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": scale has " + std::to_string(scale.numel()) +
                                                " values for axis " + std::to_string(axis) + " of size " +
                                                std::to_string(input[axis]));
  QuantizationAxis result;
  result.channels = input[axis];
  for (std::size_t d = axis + 1; d < input.size(); ++d) result.inner *= input[d];
  return result;
}

}  // namespace asc::ops
