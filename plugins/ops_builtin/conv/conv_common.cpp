#include "conv/conv_common.hpp"

#include <string>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {
namespace {

[[noreturn]] void conv_common_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

std::int64_t read_group(const Node& node) {
  const std::int64_t group = node.attributes.get_int("group", 1);
  if (group < 1) conv_common_fail(node, "attribute 'group' is " + std::to_string(group) + ", must be >= 1");
  return group;
}

// Checks what the dims that are known say about channels and groups.
void conv_common_check_channels(const Node& node, const Dim& x_channels, const Dim& w_out, const Dim& w_in,
                                std::int64_t group) {
  if (w_out.is_static() && w_out.value % group != 0)
    conv_common_fail(node, "W has " + std::to_string(w_out.value) +
                               " output channels, not divisible by group " + std::to_string(group));
  if (x_channels.is_static() && w_in.is_static() && x_channels.value != w_in.value * group)
    conv_common_fail(node, "X has " + std::to_string(x_channels.value) + " channels but W expects " +
                               std::to_string(w_in.value) + " per group x " + std::to_string(group) +
                               " groups");
}

}  // namespace

ConvGeometry conv_geometry(const Node& node, const Shape& x, const Shape& w) {
  if (x.size() < 3)
    conv_common_fail(node, "X has rank " + std::to_string(x.size()) + ", expected N, C and spatial axes");
  if (w.size() != x.size())
    conv_common_fail(
        node, "W has rank " + std::to_string(w.size()) + " but X has rank " + std::to_string(x.size()));
  const std::size_t spatial = x.size() - 2;
  const WindowAttributes attributes = read_window_attributes(node, spatial, true);
  const Shape kernel(w.begin() + 2, w.end());
  if (!attributes.kernel.empty() && attributes.kernel != kernel)
    conv_common_fail(node, "attribute 'kernel_shape' " + shape_to_string(attributes.kernel) +
                               " differs from W's " + shape_to_string(kernel));
  ConvGeometry geometry;
  geometry.group = read_group(node);
  conv_common_check_channels(node, x[1], w[0], w[1], geometry.group);
  geometry.batch = x[0];
  geometry.in_channels = x[1];
  geometry.out_channels = w[0];
  geometry.window =
      to_window3(resolve_forward_window(attributes, Shape(x.begin() + 2, x.end()), kernel, node), node);
  return geometry;
}

Shape conv_output_shape(const ConvGeometry& geometry, std::size_t spatial_rank) {
  Shape shape{geometry.batch, geometry.out_channels};
  shape.insert(shape.end(), geometry.window.output.end() - static_cast<std::ptrdiff_t>(spatial_rank),
               geometry.window.output.end());
  return shape;
}

void infer_conv_output(InferenceContext& context, DType output_dtype) {
  const Node& node = context.node;
  ValueInfo& y = context.outputs[0];
  y.dtype = output_dtype;
  const ValueInfo& x = context.input(0);
  const ValueInfo& w = context.input(1);
  if (!x.shape && !w.shape) {
    y.shape = std::nullopt;
    return;
  }
  const std::size_t rank = x.shape ? x.shape->size() : w.shape->size();
  if (rank < 3)
    conv_common_fail(node, "X has rank " + std::to_string(rank) + ", expected N, C and spatial axes");
  if (x.shape && w.shape && w.shape->size() != rank)
    conv_common_fail(
        node, "W has rank " + std::to_string(w.shape->size()) + " but X has rank " + std::to_string(rank));
  const std::size_t spatial = rank - 2;
  const WindowAttributes attributes = read_window_attributes(node, spatial, true);
  const std::int64_t group = read_group(node);
  std::vector<Dim> dims(rank);
  if (x.shape) dims[0] = (*x.shape)[0];
  std::vector<std::int64_t> kernel = attributes.kernel;
  if (w.shape) {
    dims[1] = (*w.shape)[0];
    if (x.shape) conv_common_check_channels(node, (*x.shape)[1], (*w.shape)[0], (*w.shape)[1], group);
    std::vector<std::int64_t> w_kernel;
    for (std::size_t i = 2; i < rank; ++i)
      if ((*w.shape)[i].is_static()) w_kernel.push_back((*w.shape)[i].value);
    if (w_kernel.size() == spatial) {
      if (!kernel.empty() && kernel != w_kernel)
        conv_common_fail(node, "attribute 'kernel_shape' " + shape_to_string(kernel) + " differs from W's " +
                                   shape_to_string(w_kernel));
      kernel = w_kernel;
    }
  }
  if (x.shape && kernel.size() == spatial) {
    const std::vector<Dim> input_spatial(x.shape->begin() + 2, x.shape->end());
    const std::vector<Dim> out = infer_forward_spatial(attributes, input_spatial, kernel, node);
    std::copy(out.begin(), out.end(), dims.begin() + 2);
  }
  y.shape = std::move(dims);
}

CostFacts conv_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
  const ValueInfo* w = context.inputs.size() > 1 ? context.inputs[1] : nullptr;
  const ValueInfo* y = context.outputs.empty() ? nullptr : context.outputs[0];
  const std::int64_t w_elements = value_elements(w);
  if (w_elements == 0 || value_elements(y) == 0) return facts;
  // Every output element takes one MAC per weight of its output channel: (C/group) * kernel.
  const std::int64_t out_channels = w->static_shape()[0];
  facts.flops = 2.0 * static_cast<double>(value_elements(y)) * static_cast<double>(w_elements / out_channels);
  return facts;
}

}  // namespace asc::ops
