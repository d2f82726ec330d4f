// Reshape (0 copies the input dimension unless allowzero=1 from opset 14; one -1 is inferred)
// and Flatten. Both only relabel the shape: the output shares the input's buffer.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

bool allows_zero(const Node& node, std::int64_t opset) {
  return opset >= 14 && node.attributes.get_int("allowzero", 0) != 0;
}

// The output dims for `requested` applied to `input` (whose rank may be unknown). Throws
// EE2003 for requests that are invalid whatever the input turns out to be, and for element
// count mismatches that are already visible.
Dims reshape_dims(const std::optional<Dims>& input, const std::vector<std::int64_t>& requested, bool allowzero,
                  const Node& node) {
  Dims out(requested.size());
  std::optional<std::size_t> inferred;
  bool has_zero = false;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    const std::int64_t value = requested[i];
    if (value == -1) {
      if (inferred)
        throw Error(ErrorCode::InvalidOperator, node.describe() + ": shape has more than one -1");
      inferred = i;
    } else if (value < -1) {
      throw Error(ErrorCode::InvalidOperator,
                  node.describe() + ": shape has invalid dimension " + std::to_string(value));
    } else if (value == 0 && !allowzero) {
      if (input && i >= input->size())
        throw Error(ErrorCode::InvalidOperator, node.describe() + ": shape entry " + std::to_string(i) +
                                                    " is 0 (copy) but the input has rank " +
                                                    std::to_string(input->size()));
      if (input) out[i] = (*input)[i];
    } else {
      has_zero = has_zero || value == 0;
      out[i] = value;
    }
  }
  if (inferred && has_zero)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": allowzero=1 shape has both 0 and -1");

  const Dim total = input ? product_dim(*input) : Dim();
  if (inferred) {
    Dims others = out;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(*inferred));
    const Dim known = product_dim(others);
    if (total.is_static() && known.is_static()) {
      if (known.value == 0 || total.value % known.value != 0)
        throw Error(ErrorCode::InvalidOperator, node.describe() + ": cannot reshape " + std::to_string(total.value) +
                                                    " elements into shape " + shape_to_string(requested));
      out[*inferred] = total.value / known.value;
    }
  } else {
    const Dim produced = product_dim(out);
    if (total.is_static() && produced.is_static() && total.value != produced.value)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": cannot reshape " + std::to_string(total.value) +
                                                  " elements into shape " + shape_to_string(requested) + " (" +
                                                  std::to_string(produced.value) + " elements)");
  }
  return out;
}

void infer_reshape(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  if (const Tensor* shape = context.input_value(1)) {
    const auto requested = shape->to_int64s();
    set_output(context, 0, dtype,
               reshape_dims(input_dims(context, 0), requested, allows_zero(context.node, context.opset), context.node));
    return;
  }
  const auto rank = input_length(context, 1);
  set_output(context, 0, dtype, rank ? std::optional(unknown_dims(static_cast<std::size_t>(*rank))) : std::nullopt);
}

void compute_reshape(KernelContext& context) {
  const Tensor& input = context.input(0);
  const Dims dims = reshape_dims(to_dims(input.shape()), context.input(1).to_int64s(),
                                 allows_zero(context.node, context.opset), context.node);
  context.outputs[0] = input.reshaped(static_values(dims));
}

// Flatten's axis may be rank itself (everything goes into the first dimension).
std::int64_t flatten_axis(const Node& node, std::int64_t rank) {
  const std::int64_t axis = node.attributes.get_int("axis", 1);
  const std::int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized > rank)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": axis " + std::to_string(axis) +
                                                " is out of range for rank " + std::to_string(rank));
  return normalized;
}

void infer_flatten(InferenceContext& context) {
  const auto dims = input_dims(context, 0);
  if (!dims) {
    set_output(context, 0, context.input(0).dtype, unknown_dims(2));
    return;
  }
  const auto axis = static_cast<std::size_t>(flatten_axis(context.node, static_cast<std::int64_t>(dims->size())));
  const std::span<const Dim> all(*dims);
  set_output(context, 0, context.input(0).dtype, Dims{product_dim(all.first(axis)), product_dim(all.subspan(axis))});
}

void compute_flatten(KernelContext& context) {
  const Tensor& input = context.input(0);
  const auto axis = static_cast<std::size_t>(flatten_axis(context.node, input.rank()));
  std::int64_t outer = 1;
  std::int64_t inner = 1;
  for (std::size_t d = 0; d < input.shape().size(); ++d) (d < axis ? outer : inner) *= input.shape()[d];
  context.outputs[0] = input.reshaped({outer, inner});
}

}  // namespace

ASC_REGISTER_OP("", "Reshape", 11, 17, infer_reshape, compute_reshape, metadata_cost);
ASC_REGISTER_OP("", "Flatten", 11, 17, infer_flatten, compute_flatten, metadata_cost);

}  // namespace asc::ops
