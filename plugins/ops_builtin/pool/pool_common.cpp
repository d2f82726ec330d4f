#include "pool/pool_common.hpp"

#include <algorithm>
#include <string>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {
namespace {

[[noreturn]] void pool_common_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

WindowAttributes pool_attributes(const Node& node, std::size_t spatial, bool reads_dilations) {
  WindowAttributes attributes = read_window_attributes(node, spatial, reads_dilations);
  if (attributes.kernel.empty()) pool_common_fail(node, "attribute 'kernel_shape' is required");
  return attributes;
}

// Taps for every output index of axis a (0 depth, 1 height, 2 width) of `window`; `pad_end` is
// the explicit padding after the input on that axis.
std::vector<AxisTaps> axis_taps(const Window3& window, std::size_t a, std::int64_t pad_end) {
  const std::int64_t input = window.input[a];
  const std::int64_t kernel = window.kernel[a];
  const std::int64_t dilation = window.dilation[a];
  std::vector<AxisTaps> taps(static_cast<std::size_t>(window.output[a]));
  for (std::int64_t o = 0; o < window.output[a]; ++o) {
    const std::int64_t start = o * window.stride[a] - window.pad_begin[a];
    const std::int64_t lo = std::clamp<std::int64_t>(window_ceil_div(-start, dilation), 0, kernel);
    const std::int64_t hi = std::clamp<std::int64_t>(window_ceil_div(input - start, dilation), lo, kernel);
    AxisTaps& t = taps[static_cast<std::size_t>(o)];
    t.first = start + lo * dilation;
    t.count = hi - lo;
    t.step = dilation;
    t.padded_count = std::clamp<std::int64_t>(window_ceil_div(input + pad_end - start, dilation), 0, kernel);
  }
  return taps;
}

}  // namespace

PoolWindow pool_window(const Node& node, const Shape& input, bool reads_dilations) {
  if (input.size() < 3)
    pool_common_fail(node, "X has rank " + std::to_string(input.size()) + ", expected N, C and spatial axes");
  const std::size_t spatial = input.size() - 2;
  const WindowAttributes attributes = pool_attributes(node, spatial, reads_dilations);
  PoolWindow pool;
  pool.axes =
      resolve_forward_window(attributes, Shape(input.begin() + 2, input.end()), attributes.kernel, node);
  pool.window = to_window3(pool.axes, node);
  const std::size_t lead = 3 - pool.axes.size();
  for (std::size_t a = 0; a < 3; ++a)
    pool.taps[a] = axis_taps(pool.window, a, a < lead ? 0 : pool.axes[a - lead].pad_end);
  pool.output_shape = {input[0], input[1]};
  for (const AxisWindow& axis : pool.axes) pool.output_shape.push_back(axis.output);
  pool.planes = input[0] * input[1];
  return pool;
}

void infer_pool_output(InferenceContext& context, bool reads_dilations, DType extra_dtype) {
  const Node& node = context.node;
  const ValueInfo& x = context.input(0);
  std::optional<std::vector<Dim>> shape;
  if (x.shape) {
    const std::vector<Dim>& dims = *x.shape;
    if (dims.size() < 3)
      pool_common_fail(node,
                       "X has rank " + std::to_string(dims.size()) + ", expected N, C and spatial axes");
    const WindowAttributes attributes = pool_attributes(node, dims.size() - 2, reads_dilations);
    shape = std::vector<Dim>{dims[0], dims[1]};
    const std::vector<Dim> spatial = infer_forward_spatial(
        attributes, std::vector<Dim>(dims.begin() + 2, dims.end()), attributes.kernel, node);
    shape->insert(shape->end(), spatial.begin(), spatial.end());
  }
  for (std::size_t i = 0; i < context.outputs.size(); ++i) {
    context.outputs[i].dtype = i == 0 ? x.dtype : extra_dtype;
    context.outputs[i].shape = shape;
  }
}

CostFacts pool_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Vector};
  const std::vector<std::int64_t> kernel = context.node.attributes.get_ints("kernel_shape");
  std::int64_t taps = 1;
  for (std::int64_t k : kernel) taps *= k;
  const ValueInfo* y = context.outputs.empty() ? nullptr : context.outputs[0];
  facts.flops = static_cast<double>(value_elements(y)) * static_cast<double>(taps);
  return facts;
}

}  // namespace asc::ops
