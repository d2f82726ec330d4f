// Squeeze and Unsqueeze: axes are an attribute before opset 13 and an input from 13. Both only
// relabel the shape, so the output shares the input's buffer.
#include <asc/sdk/error.hpp>

#include "common/attribute_inputs.hpp"
#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

// Opset 13 moved axes from the attribute to input 1.
const char* axes_attribute(std::int64_t opset) { return opset < 13 ? "axes" : ""; }

template <class Context> std::optional<std::vector<std::int64_t>> axes_of(const Context& context) {
  return ints_from_input_or_attribute(context, 1, axes_attribute(context.opset));
}

// Marks the normalised axes; throws EE2003 for repeated axes.
std::vector<bool> axis_mask(const std::vector<std::int64_t>& axes, std::int64_t rank, const Node& node) {
  std::vector<bool> mask(static_cast<std::size_t>(rank), false);
  for (const std::int64_t axis : normalize_axes(axes, rank, node)) {
    if (mask[static_cast<std::size_t>(axis)])
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": axis " + std::to_string(axis) + " is repeated");
    mask[static_cast<std::size_t>(axis)] = true;
  }
  return mask;
}

// Squeezed dims, or std::nullopt when which dims go cannot be known yet.
std::optional<Dims> squeeze_dims(const Dims& input, const std::optional<std::vector<std::int64_t>>& axes,
                                 const Node& node) {
  Dims out;
  if (!axes) {
    for (const Dim& dim : input) {
      if (!dim.is_static()) return std::nullopt;
      if (dim.value != 1) out.push_back(dim);
    }
    return out;
  }
  const auto mask = axis_mask(*axes, static_cast<std::int64_t>(input.size()), node);
  for (std::size_t d = 0; d < input.size(); ++d) {
    if (!mask[d]) {
      out.push_back(input[d]);
    } else if (input[d].is_static() && input[d].value != 1) {
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": cannot squeeze axis " + std::to_string(d) +
                                                  " of size " + std::to_string(input[d].value));
    }
  }
  return out;
}

Dims unsqueeze_dims(const Dims& input, const std::vector<std::int64_t>& axes, const Node& node) {
  const auto out_rank = static_cast<std::int64_t>(input.size() + axes.size());
  const auto mask = axis_mask(axes, out_rank, node);
  Dims out;
  auto next = input.begin();
  for (const bool inserted : mask) out.push_back(inserted ? Dim(1) : *next++);
  return out;
}

void infer_squeeze(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  const bool axes_given = context.has_input(1) || context.attrs().has(axes_attribute(context.opset));
  const auto axes = axes_of(context);
  if (dims && (axes || !axes_given)) {
    set_output(context, 0, dtype, squeeze_dims(*dims, axes, context.node));
    return;
  }
  const auto count = input_length(context, 1);
  if (dims && count && static_cast<std::size_t>(*count) <= dims->size()) {
    set_output(context, 0, dtype, unknown_dims(dims->size() - static_cast<std::size_t>(*count)));
    return;
  }
  set_output(context, 0, dtype, std::nullopt);
}

void compute_squeeze(KernelContext& context) {
  const Tensor& input = context.input(0);
  const auto dims = squeeze_dims(to_dims(input.shape()), axes_of(context), context.node);
  context.outputs[0] = input.reshaped(static_values(*dims));
}

void infer_unsqueeze(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  if (const auto axes = axes_of(context)) {
    set_output(context, 0, dtype, dims ? std::optional(unsqueeze_dims(*dims, *axes, context.node)) : std::nullopt);
    return;
  }
  const auto count = input_length(context, 1);
  if (dims && count) {
    set_output(context, 0, dtype, unknown_dims(dims->size() + static_cast<std::size_t>(*count)));
    return;
  }
  set_output(context, 0, dtype, std::nullopt);
}

void compute_unsqueeze(KernelContext& context) {
  const Tensor& input = context.input(0);
  const auto axes = axes_of(context);
  if (!axes) throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": axes are missing");
  context.outputs[0] = input.reshaped(static_values(unsqueeze_dims(to_dims(input.shape()), *axes, context.node)));
}

}  // namespace

ASC_REGISTER_OP("", "Squeeze", 11, 17, infer_squeeze, compute_squeeze, metadata_cost);
ASC_REGISTER_OP("", "Unsqueeze", 11, 17, infer_unsqueeze, compute_unsqueeze, metadata_cost);

}  // namespace asc::ops
