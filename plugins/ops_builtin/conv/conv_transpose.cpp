// ConvTranspose (opset 11-17): the gradient of Conv with respect to its input, N-D, grouped,
// with output_padding, output_shape and auto_pad. Computed as W^T * X per group followed by col2im.
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/nn_compute_dtype.hpp"
#include "conv/convolution.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void conv_transpose_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

struct TransposeAttributes {
  WindowAttributes window;
  std::vector<std::int64_t> output_padding;
  std::optional<std::vector<std::int64_t>> output_shape;  // spatial sizes only
  std::int64_t group = 1;
};

TransposeAttributes read_attributes(const Node& node, std::size_t spatial) {
  TransposeAttributes attributes;
  attributes.window = read_window_attributes(node, spatial, true);
  if (attributes.window.ceil_mode) conv_transpose_fail(node, "ConvTranspose has no attribute 'ceil_mode'");
  attributes.group = node.attributes.get_int("group", 1);
  if (attributes.group < 1) conv_transpose_fail(node, "attribute 'group' must be >= 1");
  attributes.output_padding =
      node.attributes.get_ints("output_padding", std::vector<std::int64_t>(spatial, 0));
  if (attributes.output_padding.size() != spatial)
    conv_transpose_fail(node, "attribute 'output_padding' has " +
                                  std::to_string(attributes.output_padding.size()) + " values, expected " +
                                  std::to_string(spatial));
  for (std::size_t i = 0; i < spatial; ++i) {
    const std::int64_t padding = attributes.output_padding[i];
    if (padding < 0 || (padding >= attributes.window.strides[i] && padding >= attributes.window.dilations[i]))
      conv_transpose_fail(node, "output_padding " + std::to_string(padding) + " on axis " +
                                    std::to_string(i) +
                                    " must be >= 0 and less than the stride or the dilation");
  }
  if (node.attributes.has("output_shape")) {
    std::vector<std::int64_t> shape = node.attributes.get_ints("output_shape");
    // Some exporters write the full N, C, spatial shape: its spatial tail is what counts.
    if (shape.size() == spatial + 2) shape.erase(shape.begin(), shape.begin() + 2);
    if (shape.size() != spatial)
      conv_transpose_fail(node, "attribute 'output_shape' has " + std::to_string(shape.size()) +
                                    " values, expected " + std::to_string(spatial));
    for (std::int64_t size : shape)
      if (size < 1) conv_transpose_fail(node, "attribute 'output_shape' has a size < 1");
    attributes.output_shape = std::move(shape);
  }
  return attributes;
}

// One axis: `input` is the size along X, the result's output the size along Y.
AxisWindow resolve_axis(const TransposeAttributes& attributes, std::size_t axis, std::int64_t input,
                        std::int64_t kernel, const Node& node) {
  const WindowAttributes& window = attributes.window;
  const std::size_t rank = window.strides.size();
  AxisWindow result;
  result.input = input;
  result.kernel = kernel;
  result.stride = window.strides[axis];
  result.dilation = window.dilations[axis];
  const std::int64_t extent = (kernel - 1) * result.dilation + 1;
  const std::int64_t full = result.stride * (input - 1) + attributes.output_padding[axis] + extent;
  const bool same = window.auto_pad == AutoPad::SameUpper || window.auto_pad == AutoPad::SameLower;
  if (attributes.output_shape) {
    const std::int64_t total = full - (*attributes.output_shape)[axis];
    if (total < 0) {
      // A larger output than the input can reach: the extra positions at the end stay zero.
      result.pad_end = total;
    } else {
      result.pad_begin = window.auto_pad == AutoPad::SameUpper ? total / 2 : total - total / 2;
      result.pad_end = total - result.pad_begin;
    }
  } else if (same) {
    // ONNX's shape inference: total padding kernel extent - stride, so output = input * stride.
    const std::int64_t total = std::max<std::int64_t>(0, extent - result.stride);
    result.pad_begin = window.auto_pad == AutoPad::SameUpper ? total / 2 : total - total / 2;
    result.pad_end = total - result.pad_begin;
  } else if (window.auto_pad == AutoPad::NotSet) {
    result.pad_begin = window.pads[axis];
    result.pad_end = window.pads[axis + rank];
  }
  result.output = full - result.pad_begin - result.pad_end;
  if (result.output < 1)
    conv_transpose_fail(node, "padding leaves no output on spatial axis " + std::to_string(axis));
  return result;
}

void conv_transpose_check_channels(const Node& node, const Dim& x_channels, const Dim& w_in,
                                   std::int64_t group) {
  if (w_in.is_static() && w_in.value % group != 0)
    conv_transpose_fail(node, "W has " + std::to_string(w_in.value) +
                                  " input channels, not divisible by group " + std::to_string(group));
  if (x_channels.is_static() && w_in.is_static() && x_channels.value != w_in.value)
    conv_transpose_fail(node, "X has " + std::to_string(x_channels.value) + " channels but W has " +
                                  std::to_string(w_in.value));
}

std::vector<std::int64_t> kernel_of(const Node& node, const TransposeAttributes& attributes, const Shape& w) {
  const std::vector<std::int64_t> kernel(w.begin() + 2, w.end());
  if (!attributes.window.kernel.empty() && attributes.window.kernel != kernel)
    conv_transpose_fail(node, "attribute 'kernel_shape' " + shape_to_string(attributes.window.kernel) +
                                  " differs from W's " + shape_to_string(kernel));
  return kernel;
}

void conv_transpose_infer(InferenceContext& context) {
  const Node& node = context.node;
  ValueInfo& y = context.outputs[0];
  const ValueInfo& x = context.input(0);
  const ValueInfo& w = context.input(1);
  y.dtype = x.dtype;
  if (!x.shape && !w.shape) {
    y.shape = std::nullopt;
    return;
  }
  const std::size_t rank = x.shape ? x.shape->size() : w.shape->size();
  if (rank < 3)
    conv_transpose_fail(node, "X has rank " + std::to_string(rank) + ", expected N, C and spatial axes");
  if (x.shape && w.shape && w.shape->size() != rank)
    conv_transpose_fail(node, "X and W have different ranks");
  const std::size_t spatial = rank - 2;
  const TransposeAttributes attributes = read_attributes(node, spatial);
  std::vector<Dim> dims(rank);
  if (x.shape) dims[0] = (*x.shape)[0];
  std::vector<std::int64_t> kernel = attributes.window.kernel;
  if (w.shape) {
    const std::vector<Dim>& w_dims = *w.shape;
    if (x.shape) conv_transpose_check_channels(node, (*x.shape)[1], w_dims[0], attributes.group);
    if (w_dims[1].is_static()) dims[1] = w_dims[1].value * attributes.group;
    Shape w_static;
    for (const Dim& d : w_dims) w_static.push_back(d.value);
    if (std::all_of(w_dims.begin() + 2, w_dims.end(), [](const Dim& d) { return d.is_static(); }))
      kernel = kernel_of(node, attributes, w_static);
  }
  for (std::size_t axis = 0; axis < spatial; ++axis) {
    if (attributes.output_shape)
      dims[2 + axis] = (*attributes.output_shape)[axis];
    else if (x.shape && (*x.shape)[2 + axis].is_static() && kernel.size() == spatial)
      dims[2 + axis] = resolve_axis(attributes, axis, (*x.shape)[2 + axis].value, kernel[axis], node).output;
  }
  y.shape = std::move(dims);
}

void conv_transpose_compute(KernelContext& context) {
  const Node& node = context.node;
  const DType dtype = context.input(0).dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  if (compute_dtype != DType::Float32 && compute_dtype != DType::Float64)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": ConvTranspose supports float16, bfloat16, float32 and float64, not " +
                    std::string(dtype_name(dtype)));
  if (context.input(1).dtype() != dtype || (context.has_input(2) && context.input(2).dtype() != dtype))
    conv_transpose_fail(node, "X, W and B must have the same dtype");
  const Tensor x = to_nn_compute_dtype(context.input(0));
  const Tensor w = to_nn_compute_dtype(context.input(1));
  if (x.rank() < 3)
    conv_transpose_fail(node, "X has rank " + std::to_string(x.rank()) + ", expected N, C and spatial axes");
  if (w.rank() != x.rank()) conv_transpose_fail(node, "X and W have different ranks");
  const std::size_t spatial = x.shape().size() - 2;
  const TransposeAttributes attributes = read_attributes(node, spatial);
  conv_transpose_check_channels(node, x.shape()[1], w.shape()[0], attributes.group);
  const std::vector<std::int64_t> kernel = kernel_of(node, attributes, w.shape());

  std::vector<AxisWindow> axes;
  for (std::size_t axis = 0; axis < spatial; ++axis)
    axes.push_back(resolve_axis(attributes, axis, x.shape()[2 + axis], kernel[axis], node));
  ConvGeometry geometry;
  geometry.batch = x.shape()[0];
  geometry.in_channels = x.shape()[1];
  geometry.out_channels = w.shape()[1] * attributes.group;
  geometry.group = attributes.group;
  geometry.window = to_window3(axes, node);
  std::swap(geometry.window.input, geometry.window.output);  // col2im walks Y as the image

  Tensor bias;
  if (context.has_input(2)) {
    bias = to_nn_compute_dtype(context.input(2));
    if (bias.shape() != Shape{geometry.out_channels})
      conv_transpose_fail(node, "B has shape " + shape_to_string(bias.shape()) + ", expected [" +
                                    std::to_string(geometry.out_channels) + "]");
  }
  Shape y_shape{geometry.batch, geometry.out_channels};
  for (const AxisWindow& axis : axes) y_shape.push_back(axis.output);
  Tensor y(compute_dtype, y_shape);
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      transpose_convolve<T>(geometry, x.data<T>(), w.data<T>(), bias.defined() ? bias.data<T>() : nullptr,
                            y.data<T>(), context.threads);
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

// Cube: every input element meets every weight of its group's output channels: 2 * X * (M/group) * kernel.
CostFacts conv_transpose_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
  const ValueInfo* x = context.inputs.empty() ? nullptr : context.inputs[0];
  const ValueInfo* w = context.inputs.size() > 1 ? context.inputs[1] : nullptr;
  const std::int64_t w_elements = value_elements(w);
  if (w_elements == 0 || value_elements(x) == 0) return facts;
  const std::int64_t in_channels = w->static_shape()[0];
  facts.flops = 2.0 * static_cast<double>(value_elements(x)) * static_cast<double>(w_elements / in_channels);
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "ConvTranspose", 11, 17, conv_transpose_infer, conv_transpose_compute,
                conv_transpose_cost);

}  // namespace asc::ops
