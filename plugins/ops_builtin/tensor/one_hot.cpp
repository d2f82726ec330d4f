// OneHot: inserts a dimension of size depth at axis; output[..., d, ...] is values[1] where the
// index equals d (negative indices count from depth) and values[0] elsewhere.
#include <algorithm>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/element_words.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

std::int64_t one_hot_axis(const Node& node, std::int64_t indices_rank) {
  const std::int64_t axis = node.attributes.get_int("axis", -1);
  const std::int64_t normalized = axis < 0 ? axis + indices_rank + 1 : axis;
  if (normalized < 0 || normalized > indices_rank)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": axis " + std::to_string(axis) +
                                                " is out of range for indices of rank " + std::to_string(indices_rank));
  return normalized;
}

std::int64_t depth_of(const Tensor& depth, const Node& node) {
  if (depth.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": depth must hold one value");
  const std::int64_t value = depth.to_int64s()[0];
  if (value <= 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": depth must be positive, not " + std::to_string(value));
  return value;
}

void infer_one_hot(InferenceContext& context) {
  const DType dtype = context.input(2).dtype;
  const auto dims = input_dims(context, 0);
  if (!dims) {
    set_output(context, 0, dtype, std::nullopt);
    return;
  }
  const auto axis = one_hot_axis(context.node, static_cast<std::int64_t>(dims->size()));
  const Tensor* depth = context.input_value(1);
  Dims out = *dims;
  out.insert(out.begin() + axis, depth != nullptr ? Dim(depth_of(*depth, context.node)) : Dim());
  set_output(context, 0, dtype, std::move(out));
}

void compute_one_hot(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& indices = context.input(0);
  const std::int64_t depth = depth_of(context.input(1), node);
  const Tensor values = context.input(2).contiguous();
  if (values.numel() != 2)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": values must hold [off_value, on_value]");
  const std::int64_t axis = one_hot_axis(node, indices.rank());
  Shape out_shape = indices.shape();
  out_shape.insert(out_shape.begin() + axis, depth);
  Tensor out(values.dtype(), out_shape);
  std::int64_t outer = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= indices.shape()[static_cast<std::size_t>(d)];
  const std::int64_t inner = outer == 0 ? 0 : indices.numel() / outer;
  // Float indices are truncated toward zero, like ONNX's reference.
  const std::vector<std::int64_t> hot = indices.to_int64s();
  visit_element_word(values.dtype(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W off = words_of<W>(values)[0];
    const W on = words_of<W>(values)[1];
    W* dst = mutable_words_of<W>(out);
    std::fill(dst, dst + out.numel(), off);
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        std::int64_t index = hot[static_cast<std::size_t>(o * inner + i)];
        if (index < 0) index += depth;
        if (index >= 0 && index < depth) dst[(o * depth + index) * inner + i] = on;
      }
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "OneHot", 11, 17, infer_one_hot, compute_one_hot, data_movement_cost);

}  // namespace asc::ops
