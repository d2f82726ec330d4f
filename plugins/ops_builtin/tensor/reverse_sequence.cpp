// ReverseSequence: for each batch entry b, reverses the first sequence_lens[b] steps along
// time_axis; batch_axis and time_axis are 0 and 1 in either order.
#include <cstring>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_reverse_sequence(InferenceContext& context) {
  set_output(context, 0, context.input(0).dtype, input_dims(context, 0));
}

void compute_reverse_sequence(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& input = context.input(0);
  const std::int64_t batch_axis = context.attrs().get_int("batch_axis", 1);
  const std::int64_t time_axis = context.attrs().get_int("time_axis", 0);
  if (input.rank() < 2 || batch_axis < 0 || batch_axis > 1 || time_axis < 0 || time_axis > 1 || batch_axis == time_axis)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": needs rank >= 2 and batch_axis/time_axis 0 and 1");
  const Shape& shape = input.shape();
  const std::int64_t batches = shape[static_cast<std::size_t>(batch_axis)];
  const std::int64_t steps = shape[static_cast<std::size_t>(time_axis)];
  const std::vector<std::int64_t> lengths = context.input(1).to_int64s();
  if (static_cast<std::int64_t>(lengths.size()) != batches)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": sequence_lens has " + std::to_string(lengths.size()) +
                                                " entries for a batch of " + std::to_string(batches));
  const Shape strides = contiguous_strides(shape);
  const std::int64_t batch_stride = strides[static_cast<std::size_t>(batch_axis)];
  const std::int64_t time_stride = strides[static_cast<std::size_t>(time_axis)];
  const std::size_t element = dtype_size(input.dtype());
  const auto block = static_cast<std::size_t>(strides[1]) * element;  // the dims after the first two
  Tensor out = input.clone();
  const std::byte* src = input.view().raw();
  std::byte* dst = out.view().raw();
  for (std::int64_t b = 0; b < batches; ++b) {
    const std::int64_t length = lengths[static_cast<std::size_t>(b)];
    if (length < 0 || length > steps)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": sequence length " + std::to_string(length) +
                                                  " is outside [0, " + std::to_string(steps) + "]");
    for (std::int64_t t = 0; t < length; ++t) {
      const auto to = static_cast<std::size_t>(b * batch_stride + t * time_stride) * element;
      const auto from = static_cast<std::size_t>(b * batch_stride + (length - 1 - t) * time_stride) * element;
      std::memcpy(dst + to, src + from, block);
    }
  }
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "ReverseSequence", 11, 17, infer_reverse_sequence, compute_reverse_sequence, data_movement_cost);

}  // namespace asc::ops
