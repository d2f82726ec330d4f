// Shape (start/end from opset 15) and Size: int64 metadata of the input, no data read.
#include <algorithm>

#include <asc/sdk/op_cost.hpp>
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

struct DimRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

// Negative start/end count from the end; both are clamped to [0, rank].
DimRange shape_range(const Node& node, std::int64_t opset, std::int64_t rank) {
  if (opset < 15) return {0, rank};
  auto clamp = [rank](std::int64_t value) { return std::clamp<std::int64_t>(value < 0 ? value + rank : value, 0, rank); };
  const std::int64_t begin = clamp(node.attributes.get_int("start", 0));
  const std::int64_t end = node.attributes.has("end") ? clamp(node.attributes.get_int("end", rank)) : rank;
  return {begin, std::max(begin, end)};
}

void infer_shape(InferenceContext& context) {
  const auto dims = input_dims(context, 0);
  Dim length;
  if (dims) {
    const DimRange range = shape_range(context.node, context.opset, static_cast<std::int64_t>(dims->size()));
    length = range.end - range.begin;
  }
  set_output(context, 0, DType::Int64, Dims{length});
}

void compute_shape(KernelContext& context) {
  const Shape& shape = context.input(0).shape();
  const DimRange range = shape_range(context.node, context.opset, static_cast<std::int64_t>(shape.size()));
  const std::vector<std::int64_t> values(shape.begin() + range.begin, shape.begin() + range.end);
  context.outputs[0] = Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(values.size())}, values);
}

void infer_size(InferenceContext& context) { set_output(context, 0, DType::Int64, Dims{}); }

void compute_size(KernelContext& context) {
  context.outputs[0] = Tensor::scalar<std::int64_t>(context.input(0).numel());
}

}  // namespace

ASC_REGISTER_OP("", "Shape", 11, 17, infer_shape, compute_shape, metadata_cost);
ASC_REGISTER_OP("", "Size", 11, 17, infer_size, compute_size, metadata_cost);

}  // namespace asc::ops
