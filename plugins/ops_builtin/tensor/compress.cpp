// Compress: keeps the slices along axis (or the elements of the flattened input without an
// axis) whose condition entry is true. A condition shorter than the axis drops the rest.
#include <cstring>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_compress(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  if (!context.attrs().has("axis")) {
    set_output(context, 0, dtype, unknown_dims(1));
    return;
  }
  auto dims = input_dims(context, 0);
  if (dims) {
    const auto axis = normalize_axis(context.attrs().require_int("axis"), static_cast<std::int64_t>(dims->size()), context.node);
    (*dims)[static_cast<std::size_t>(axis)] = Dim();
  }
  set_output(context, 0, dtype, std::move(dims));
}

void compute_compress(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& full = context.input(0);
  const bool flatten = !context.attrs().has("axis");
  const Tensor input = flatten ? full.reshaped({full.numel()}) : full;
  const auto axis = static_cast<std::size_t>(flatten ? 0 : normalize_axis(context.attrs().require_int("axis"), input.rank(), node));
  const std::int64_t dim = input.shape()[axis];
  const std::vector<std::int64_t> condition = context.input(1).to_int64s();
  std::vector<std::int64_t> kept;
  for (std::size_t i = 0; i < condition.size(); ++i) {
    if (condition[i] == 0) continue;
    if (static_cast<std::int64_t>(i) >= dim)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": condition selects index " + std::to_string(i) +
                                                  " of a dimension of size " + std::to_string(dim));
    kept.push_back(static_cast<std::int64_t>(i));
  }
  Shape out_shape = input.shape();
  out_shape[axis] = static_cast<std::int64_t>(kept.size());
  Tensor out(input.dtype(), out_shape);
  std::int64_t outer = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= input.shape()[d];
  const std::size_t block = dim == 0 || outer == 0 ? 0 : input.nbytes() / static_cast<std::size_t>(outer * dim);
  const std::byte* src = input.view().raw();
  std::byte* dst = out.view().raw();
  for (std::int64_t o = 0; o < outer; ++o)
    for (const std::int64_t i : kept) {
      std::memcpy(dst, src + static_cast<std::size_t>(o * dim + i) * block, block);
      dst += block;
    }
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "Compress", 11, 17, infer_compress, compute_compress, data_movement_cost);

}  // namespace asc::ops
