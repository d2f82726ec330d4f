// Sliding-window geometry shared by the convolution and pooling families: reading and checking
// kernel_shape/strides/dilations/pads/auto_pad, resolving auto_pad into pads, output sizes, and
// the 3-D normal form the kernels loop over (1-D and 2-D windows get leading axes of size 1).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <asc/sdk/graph.hpp>

namespace asc::ops {

enum class AutoPad { NotSet, SameUpper, SameLower, Valid };

// ceil(a / b) for b > 0 and any sign of a (window positions before the input are negative).
inline std::int64_t window_ceil_div(std::int64_t a, std::int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

// The window attributes of a node, checked against the number of spatial axes.
struct WindowAttributes {
  AutoPad auto_pad = AutoPad::NotSet;
  std::vector<std::int64_t> kernel;  // empty when the attribute is absent (Conv reads it from W)
  std::vector<std::int64_t> strides;
  std::vector<std::int64_t> dilations;
  std::vector<std::int64_t> pads;  // ONNX order: every begin, then every end
  bool ceil_mode = false;
};

// Throws InvalidOperator naming the node for a wrong-length list, a non-positive kernel, stride
// or dilation, a negative pad, an unknown auto_pad, or both pads and auto_pad given.
// `reads_dilations` is false for ops whose schema has no dilations (AveragePool, LpPool <= 17).
WindowAttributes read_window_attributes(const Node& node, std::size_t spatial_rank, bool reads_dilations);

// One spatial axis with pads resolved.
struct AxisWindow {
  std::int64_t input = 0;
  std::int64_t kernel = 1;
  std::int64_t stride = 1;
  std::int64_t dilation = 1;
  std::int64_t pad_begin = 0;
  std::int64_t pad_end = 0;
  std::int64_t output = 0;
};

// A forward window (Conv, pools) on axis `axis`: pads from auto_pad where set, the output size
// by ONNX's rule (floor, or ceil with ceil_mode). Throws InvalidOperator when no window fits.
AxisWindow resolve_forward_axis(const WindowAttributes& attributes, std::size_t axis, std::int64_t input,
                                std::int64_t kernel, const Node& node);
std::vector<AxisWindow> resolve_forward_window(const WindowAttributes& attributes, const Shape& input_spatial,
                                               const std::vector<std::int64_t>& kernel, const Node& node);

// Output spatial dims for inference: static where the input dim is, unknown elsewhere.
std::vector<Dim> infer_forward_spatial(const WindowAttributes& attributes,
                                       const std::vector<Dim>& input_spatial,
                                       const std::vector<std::int64_t>& kernel, const Node& node);

// A window of up to three spatial axes, padded at the front with size-1 axes so kernels need
// only one loop nest. Index 0 is depth, 1 height, 2 width.
struct Window3 {
  std::array<std::int64_t, 3> input{1, 1, 1};
  std::array<std::int64_t, 3> output{1, 1, 1};
  std::array<std::int64_t, 3> kernel{1, 1, 1};
  std::array<std::int64_t, 3> stride{1, 1, 1};
  std::array<std::int64_t, 3> dilation{1, 1, 1};
  std::array<std::int64_t, 3> pad_begin{0, 0, 0};

  std::int64_t input_size() const { return input[0] * input[1] * input[2]; }
  std::int64_t output_size() const { return output[0] * output[1] * output[2]; }
  std::int64_t kernel_size() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// Throws UnsupportedOperator (EE2001) for more than three spatial axes: valid ONNX, but no kernel here.
Window3 to_window3(const std::vector<AxisWindow>& axes, const Node& node);

}  // namespace asc::ops
