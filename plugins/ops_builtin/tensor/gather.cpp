// Gather along one axis: output = data[:axis] + indices.shape + data[axis+1:]; each index picks
// one contiguous block of the trailing dimensions. Negative indices count from the end.
#include <algorithm>
#include <cstring>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/index_checks.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_gather(InferenceContext& context) {
  const auto data = input_dims(context, 0);
  const auto indices = input_dims(context, 1);
  if (!data || !indices) {
    set_output(context, 0, context.input(0).dtype, std::nullopt);
    return;
  }
  const auto axis = static_cast<std::size_t>(
      normalize_axis(context.attrs().get_int("axis", 0), static_cast<std::int64_t>(data->size()), context.node));
  Dims out(data->begin(), data->begin() + static_cast<std::ptrdiff_t>(axis));
  out.insert(out.end(), indices->begin(), indices->end());
  out.insert(out.end(), data->begin() + static_cast<std::ptrdiff_t>(axis) + 1, data->end());
  set_output(context, 0, context.input(0).dtype, std::move(out));
}

void compute_gather(KernelContext& context) {
  const Tensor& data = context.input(0);
  const Tensor& indices = context.input(1);
  const auto axis = static_cast<std::size_t>(normalize_axis(context.attrs().get_int("axis", 0), data.rank(), context.node));
  Shape out_shape(data.shape().begin(), data.shape().begin() + static_cast<std::ptrdiff_t>(axis));
  out_shape.insert(out_shape.end(), indices.shape().begin(), indices.shape().end());
  out_shape.insert(out_shape.end(), data.shape().begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.shape().end());
  Tensor out(data.dtype(), out_shape);

  const std::int64_t dim = data.shape()[axis];
  std::vector<std::int64_t> picks = indices.to_int64s();
  for (auto& index : picks) index = checked_index(index, dim, context.node);
  std::int64_t outer = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= data.shape()[d];
  const std::size_t block = dim == 0 || outer == 0 ? 0 : data.nbytes() / static_cast<std::size_t>(outer * dim);
  const std::byte* src = data.view().raw();
  std::byte* dst = out.view().raw();
  for (std::int64_t o = 0; o < outer; ++o) {
    const std::byte* slab = src + static_cast<std::size_t>(o * dim) * block;
    for (const std::int64_t index : picks) {
      std::memcpy(dst, slab + static_cast<std::size_t>(index) * block, block);
      dst += block;
    }
  }
  context.outputs[0] = std::move(out);
}

// A gather moves the blocks its indices pick (the output's bytes; a table larger than that, as an
// embedding, is never read whole) and the indices.
CostFacts cost_gather(const CostContext& context) {
  const ValueInfo* data = context.inputs.empty() ? nullptr : context.inputs[0];
  const std::int64_t picked = std::min(value_bytes(data), output_bytes(context));
  const std::int64_t indices = context.inputs.size() > 1 ? value_bytes(context.inputs[1]) : 0;
  return {0.0, picked + indices, output_bytes(context), ComputeUnit::Vector};
}

}  // namespace

ASC_REGISTER_OP("", "Gather", 11, 17, infer_gather, compute_gather, cost_gather);

}  // namespace asc::ops
