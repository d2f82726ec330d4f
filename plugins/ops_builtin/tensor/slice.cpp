// Slice (inputs starts, ends, axes?, steps? since opset 10): per axis, negative starts/ends count
// from the end and are clamped as ONNX specifies ([0, dim] for positive steps, [-1, dim-1] for
// the end with negative steps). The result is a strided view of the input, materialised.
#include <algorithm>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"
#include "tensor/strided_view.hpp"

namespace asc::ops {
namespace {

struct AxisSlice {
  std::int64_t start = 0;
  std::int64_t length = 0;
  std::int64_t step = 1;
};

AxisSlice clamp_slice(std::int64_t start, std::int64_t end, std::int64_t step, std::int64_t dim) {
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  AxisSlice slice;
  slice.step = step;
  if (dim == 0) return slice;
  if (step > 0) {
    slice.start = std::clamp<std::int64_t>(start, 0, dim);
    end = std::clamp<std::int64_t>(end, 0, dim);
    slice.length = end > slice.start ? 1 + (end - slice.start - 1) / step : 0;
  } else {
    slice.start = std::clamp<std::int64_t>(start, 0, dim - 1);
    end = std::clamp<std::int64_t>(end, -1, dim - 1);
    // -step as unsigned: INT64_MIN is a valid (huge) step.
    const std::uint64_t magnitude = 0 - static_cast<std::uint64_t>(step);
    slice.length = slice.start > end ? 1 + static_cast<std::int64_t>(static_cast<std::uint64_t>(slice.start - end - 1) / magnitude) : 0;
  }
  return slice;
}

struct SliceParams {
  std::vector<std::int64_t> starts, ends, axes, steps;
};

// Validates lengths, normalises axes and fills the defaults (all axes in order, step 1).
SliceParams checked_params(SliceParams params, std::int64_t rank, const Node& node) {
  const std::size_t count = params.starts.size();
  if (params.axes.empty())
    for (std::size_t i = 0; i < count; ++i) params.axes.push_back(static_cast<std::int64_t>(i));
  if (params.steps.empty()) params.steps.assign(count, 1);
  if (params.ends.size() != count || params.axes.size() != count || params.steps.size() != count)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": starts, ends, axes and steps differ in length");
  params.axes = normalize_axes(params.axes, rank, node);
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  for (std::size_t i = 0; i < count; ++i) {
    if (params.steps[i] == 0) throw Error(ErrorCode::InvalidOperator, node.describe() + ": step is 0");
    const auto axis = static_cast<std::size_t>(params.axes[i]);
    if (seen[axis])
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": axis " + std::to_string(params.axes[i]) +
                                                  " is repeated");
    seen[axis] = true;
  }
  return params;
}

void infer_slice(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  if (!dims) {
    set_output(context, 0, dtype, std::nullopt);
    return;
  }
  SliceParams params;
  bool known = true;
  auto read = [&](std::size_t i, std::vector<std::int64_t>& into) {
    if (!context.has_input(i)) return;
    if (const Tensor* value = context.input_value(i)) into = value->to_int64s();
    else known = false;
  };
  read(1, params.starts);
  read(2, params.ends);
  read(3, params.axes);
  read(4, params.steps);
  if (!known) {
    set_output(context, 0, dtype, unknown_dims(dims->size()));
    return;
  }
  params = checked_params(std::move(params), static_cast<std::int64_t>(dims->size()), context.node);
  Dims out = *dims;
  for (std::size_t i = 0; i < params.axes.size(); ++i) {
    Dim& dim = out[static_cast<std::size_t>(params.axes[i])];
    dim = dim.is_static() ? Dim(clamp_slice(params.starts[i], params.ends[i], params.steps[i], dim.value).length)
                          : Dim();
  }
  set_output(context, 0, dtype, std::move(out));
}

void compute_slice(KernelContext& context) {
  const Tensor& input = context.input(0);
  auto ints = [&](std::size_t i) {
    return context.has_input(i) ? context.input(i).to_int64s() : std::vector<std::int64_t>{};
  };
  const SliceParams params = checked_params({ints(1), ints(2), ints(3), ints(4)}, input.rank(), context.node);
  const Shape contiguous = contiguous_strides(input.shape());
  Shape shape = input.shape();
  Shape strides = contiguous;
  std::int64_t first = 0;
  for (std::size_t i = 0; i < params.axes.size(); ++i) {
    const auto axis = static_cast<std::size_t>(params.axes[i]);
    const AxisSlice slice = clamp_slice(params.starts[i], params.ends[i], params.steps[i], shape[axis]);
    shape[axis] = slice.length;
    strides[axis] = contiguous[axis] * slice.step;
    first += slice.start * contiguous[axis];
  }
  context.outputs[0] = copy_strided(input, first, std::move(shape), std::move(strides), context.threads);
}

// A slice moves the region it picks: one DMA per run of contiguous elements, reading the output's
// bytes from the input (plus its starts/ends/axes/steps), not the whole input. A transformer's
// fused q/k/v projection [197, 1, 2304] sliced into three [197, 1, 768] reads a third of it each.
// (Steps other than 1 along the innermost axis are rare in exports; they are counted the same.)
CostFacts cost_slice(const CostContext& context) {
  const std::int64_t data = context.inputs.empty() ? 0 : value_bytes(context.inputs[0]);
  std::int64_t parameters = 0;
  for (std::size_t i = 1; i < context.inputs.size(); ++i) parameters += value_bytes(context.inputs[i]);
  return {0.0, std::min(data, output_bytes(context)) + parameters, output_bytes(context), ComputeUnit::Vector};
}

}  // namespace

ASC_REGISTER_OP("", "Slice", 11, 17, infer_slice, compute_slice, cost_slice);

}  // namespace asc::ops
