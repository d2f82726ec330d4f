// GatherND (batch_dims from opset 12): the last indices dimension holds coordinates into the
// data dimensions after the batch dimensions; each coordinate tuple picks a contiguous block.
#include <algorithm>
#include <cstring>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/index_checks.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

std::int64_t batch_dims_of(const Node& node) { return node.attributes.get_int("batch_dims", 0); }

void infer_gather_nd(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto data = input_dims(context, 0);
  const auto indices = input_dims(context, 1);
  if (!data || !indices || indices->empty() || !indices->back().is_static()) {
    set_output(context, 0, dtype, std::nullopt);
    return;
  }
  const auto batch = static_cast<std::size_t>(batch_dims_of(context.node));
  const auto depth = static_cast<std::size_t>(indices->back().value);
  if (batch + depth > data->size())
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": batch_dims + indices.shape[-1] exceeds the data rank");
  Dims out(indices->begin(), indices->end() - 1);
  out.insert(out.end(), data->begin() + static_cast<std::ptrdiff_t>(batch + depth), data->end());
  set_output(context, 0, dtype, std::move(out));
}

void compute_gather_nd(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& data = context.input(0);
  const Tensor& indices = context.input(1);
  const Shape& data_shape = data.shape();
  const Shape& index_shape = indices.shape();
  const std::int64_t batch_dims = batch_dims_of(node);
  bool valid = index_shape.size() >= 1 && batch_dims >= 0 &&
               batch_dims < static_cast<std::int64_t>(std::min(index_shape.size(), data_shape.size()));
  const auto batch = static_cast<std::size_t>(std::max<std::int64_t>(batch_dims, 0));
  const auto depth = valid ? static_cast<std::size_t>(index_shape.back()) : 0;
  valid = valid && batch + depth <= data_shape.size();
  for (std::size_t d = 0; valid && d < batch; ++d) valid = data_shape[d] == index_shape[d];
  if (!valid)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": indices " + shape_to_string(index_shape) +
                                                " with batch_dims " + std::to_string(batch_dims) +
                                                " do not fit data " + shape_to_string(data_shape));
  Shape out_shape(index_shape.begin(), index_shape.end() - 1);
  out_shape.insert(out_shape.end(), data_shape.begin() + static_cast<std::ptrdiff_t>(batch + depth), data_shape.end());
  Tensor out(data.dtype(), out_shape);

  std::int64_t batches = 1;  // shared by data and indices
  for (std::size_t d = 0; d < batch; ++d) batches *= data_shape[d];
  std::int64_t block = 1;  // elements per picked block
  for (std::size_t d = batch + depth; d < data_shape.size(); ++d) block *= data_shape[d];
  const Shape strides = contiguous_strides(data_shape);
  const std::int64_t batch_stride = batch == 0 ? data.numel() : strides[batch - 1];
  std::int64_t tuples_per_batch = 1;
  for (std::size_t d = batch; d + 1 < index_shape.size(); ++d) tuples_per_batch *= index_shape[d];
  const std::int64_t tuples = batches * tuples_per_batch;
  const std::vector<std::int64_t> coordinates = indices.to_int64s();
  const std::size_t element = dtype_size(data.dtype());
  const std::byte* src = data.view().raw();
  std::byte* dst = out.view().raw();
  for (std::int64_t t = 0; t < tuples; ++t) {
    std::int64_t offset = (t / tuples_per_batch) * batch_stride;
    for (std::size_t k = 0; k < depth; ++k) {
      const std::int64_t coordinate = coordinates[static_cast<std::size_t>(t) * depth + k];
      offset += checked_index(coordinate, data_shape[batch + k], node) * strides[batch + k];
    }
    std::memcpy(dst, src + static_cast<std::size_t>(offset) * element, static_cast<std::size_t>(block) * element);
    dst += static_cast<std::size_t>(block) * element;
  }
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "GatherND", 11, 17, infer_gather_nd, compute_gather_nd, data_movement_cost);

}  // namespace asc::ops
