#include "common/conv_pool_window.hpp"

#include <algorithm>
#include <string>

#include <asc/sdk/error.hpp>

namespace asc::ops {
namespace {

[[noreturn]] void conv_pool_window_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

std::vector<std::int64_t> read_list(const Node& node, const char* name, std::size_t expected_size,
                                    std::int64_t fallback, std::int64_t minimum) {
  if (!node.attributes.has(name)) return std::vector<std::int64_t>(expected_size, fallback);
  std::vector<std::int64_t> values = node.attributes.get_ints(name);
  if (values.size() != expected_size)
    conv_pool_window_fail(node, std::string("attribute '") + name + "' has " + std::to_string(values.size()) +
                                    " values, expected " + std::to_string(expected_size));
  for (std::int64_t value : values)
    if (value < minimum)
      conv_pool_window_fail(node, std::string("attribute '") + name + "' has value " + std::to_string(value) +
                                      ", must be >= " + std::to_string(minimum));
  return values;
}

AutoPad parse_auto_pad(const Node& node) {
  const std::string text = node.attributes.get_string("auto_pad", "NOTSET");
  if (text == "NOTSET") return AutoPad::NotSet;
  if (text == "SAME_UPPER") return AutoPad::SameUpper;
  if (text == "SAME_LOWER") return AutoPad::SameLower;
  if (text == "VALID") return AutoPad::Valid;
  conv_pool_window_fail(
      node, "attribute 'auto_pad' is '" + text + "', expected NOTSET, SAME_UPPER, SAME_LOWER or VALID");
}

std::int64_t effective_kernel(std::int64_t kernel, std::int64_t dilation) {
  return (kernel - 1) * dilation + 1;
}

}  // namespace

WindowAttributes read_window_attributes(const Node& node, std::size_t spatial_rank, bool reads_dilations) {
  WindowAttributes attributes;
  attributes.auto_pad = parse_auto_pad(node);
  if (node.attributes.has("kernel_shape"))
    attributes.kernel = read_list(node, "kernel_shape", spatial_rank, 1, 1);
  attributes.strides = read_list(node, "strides", spatial_rank, 1, 1);
  attributes.dilations = reads_dilations ? read_list(node, "dilations", spatial_rank, 1, 1)
                                         : std::vector<std::int64_t>(spatial_rank, 1);
  attributes.pads = read_list(node, "pads", 2 * spatial_rank, 0, 0);
  const bool any_pad =
      std::any_of(attributes.pads.begin(), attributes.pads.end(), [](auto p) { return p != 0; });
  if (attributes.auto_pad != AutoPad::NotSet && any_pad)
    conv_pool_window_fail(node, "attributes 'pads' and 'auto_pad' cannot be used together");
  const std::int64_t ceil_mode = node.attributes.get_int("ceil_mode", 0);
  if (ceil_mode != 0 && ceil_mode != 1) conv_pool_window_fail(node, "attribute 'ceil_mode' must be 0 or 1");
  attributes.ceil_mode = ceil_mode == 1;
  return attributes;
}

AxisWindow resolve_forward_axis(const WindowAttributes& attributes, std::size_t axis, std::int64_t input,
                                std::int64_t kernel, const Node& node) {
  const std::size_t rank = attributes.strides.size();
  AxisWindow window;
  window.input = input;
  window.kernel = kernel;
  window.stride = attributes.strides[axis];
  window.dilation = attributes.dilations[axis];
  const std::int64_t extent = effective_kernel(kernel, window.dilation);
  if (attributes.auto_pad == AutoPad::SameUpper || attributes.auto_pad == AutoPad::SameLower) {
    // Pad so that output = ceil(input / stride), as ONNX's shape inference does.
    const std::int64_t wanted_output = window_ceil_div(input, window.stride);
    const std::int64_t total =
        std::max<std::int64_t>(0, (wanted_output - 1) * window.stride + extent - input);
    const std::int64_t small = total / 2;
    window.pad_begin = attributes.auto_pad == AutoPad::SameUpper ? small : total - small;
    window.pad_end = total - window.pad_begin;
  } else if (attributes.auto_pad == AutoPad::NotSet) {
    window.pad_begin = attributes.pads[axis];
    window.pad_end = attributes.pads[axis + rank];
  }
  const std::int64_t span = input + window.pad_begin + window.pad_end - extent;
  if (span < 0)
    conv_pool_window_fail(node, "spatial axis " + std::to_string(axis) + " of size " + std::to_string(input) +
                                    " (padded " + std::to_string(input + window.pad_begin + window.pad_end) +
                                    ") is smaller than the kernel extent " + std::to_string(extent));
  window.output = (attributes.ceil_mode ? window_ceil_div(span, window.stride) : span / window.stride) + 1;
  return window;
}

std::vector<AxisWindow> resolve_forward_window(const WindowAttributes& attributes, const Shape& input_spatial,
                                               const std::vector<std::int64_t>& kernel, const Node& node) {
  std::vector<AxisWindow> axes;
  axes.reserve(input_spatial.size());
  for (std::size_t axis = 0; axis < input_spatial.size(); ++axis)
    axes.push_back(resolve_forward_axis(attributes, axis, input_spatial[axis], kernel[axis], node));
  return axes;
}

std::vector<Dim> infer_forward_spatial(const WindowAttributes& attributes,
                                       const std::vector<Dim>& input_spatial,
                                       const std::vector<std::int64_t>& kernel, const Node& node) {
  std::vector<Dim> dims(input_spatial.size());
  for (std::size_t axis = 0; axis < input_spatial.size(); ++axis)
    if (input_spatial[axis].is_static())
      dims[axis] =
          resolve_forward_axis(attributes, axis, input_spatial[axis].value, kernel[axis], node).output;
  return dims;
}

Window3 to_window3(const std::vector<AxisWindow>& axes, const Node& node) {
  if (axes.size() > 3)
    throw Error(ErrorCode::UnsupportedOperator, node.describe() + ": " + std::to_string(axes.size()) +
                                                    " spatial axes; the reference kernels handle at most 3");
  Window3 window;
  const std::size_t lead = 3 - axes.size();
  for (std::size_t i = 0; i < axes.size(); ++i) {
    window.input[lead + i] = axes[i].input;
    window.output[lead + i] = axes[i].output;
    window.kernel[lead + i] = axes[i].kernel;
    window.stride[lead + i] = axes[i].stride;
    window.dilation[lead + i] = axes[i].dilation;
    window.pad_begin[lead + i] = axes[i].pad_begin;
  }
  return window;
}

}  // namespace asc::ops
