// Constant (value, value_float(s), value_int(s); strings and sparse values have no asc dtype)
// and ConstantOfShape (a tensor of the given shape filled with the one-element 'value').
#include <algorithm>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/element_words.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

Tensor constant_value(const Node& node) {
  const Attributes& attrs = node.attributes;
  if (attrs.has("value")) return attrs.require_tensor("value");
  if (attrs.has("value_float")) return Tensor::scalar<float>(attrs.require_float("value_float"));
  if (attrs.has("value_floats")) {
    const auto values = attrs.get_floats("value_floats");
    return Tensor::from_vector<float>({static_cast<std::int64_t>(values.size())}, values);
  }
  if (attrs.has("value_int")) return Tensor::scalar<std::int64_t>(attrs.require_int("value_int"));
  if (attrs.has("value_ints")) {
    const auto values = attrs.get_ints("value_ints");
    return Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(values.size())}, values);
  }
  if (attrs.has("value_string") || attrs.has("value_strings"))
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": string constants are not supported");
  if (attrs.has("sparse_value"))
    throw Error(ErrorCode::UnsupportedOperator, node.describe() + ": sparse constants are not supported");
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": has no value attribute");
}

void infer_constant(InferenceContext& context) {
  const Tensor value = constant_value(context.node);
  set_output(context, 0, value.dtype(), to_dims(value.shape()));
}

void compute_constant(KernelContext& context) { context.outputs[0] = constant_value(context.node); }

// The fill value: attribute 'value' (a one-element tensor), float32 0 by default.
Tensor fill_value(const Node& node) {
  if (!node.attributes.has("value")) return Tensor::scalar<float>(0.0f);
  const Tensor& value = node.attributes.require_tensor("value");
  if (value.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": value must hold exactly one element, not " +
                                                std::to_string(value.numel()));
  return value;
}

std::vector<std::int64_t> requested_shape(const Tensor& shape, const Node& node) {
  auto values = shape.to_int64s();
  for (const std::int64_t value : values)
    if (value < 0)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": shape " + shape_to_string(values) +
                                                  " has a negative dimension");
  return values;
}

void infer_constant_of_shape(InferenceContext& context) {
  const DType dtype = fill_value(context.node).dtype();
  if (const Tensor* shape = context.input_value(0)) {
    set_output(context, 0, dtype, to_dims(requested_shape(*shape, context.node)));
    return;
  }
  const auto rank = input_length(context, 0);
  set_output(context, 0, dtype, rank ? std::optional(unknown_dims(static_cast<std::size_t>(*rank))) : std::nullopt);
}

void compute_constant_of_shape(KernelContext& context) {
  const Tensor value = fill_value(context.node).contiguous();
  Tensor out(value.dtype(), requested_shape(context.input(0), context.node));
  visit_element_word(value.dtype(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W fill = words_of<W>(value)[0];
    W* dst = mutable_words_of<W>(out);
    std::fill(dst, dst + out.numel(), fill);
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "Constant", 11, 17, infer_constant, compute_constant, metadata_cost);
ASC_REGISTER_OP("", "ConstantOfShape", 11, 17, infer_constant_of_shape, compute_constant_of_shape, data_movement_cost);

}  // namespace asc::ops
