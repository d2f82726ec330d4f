// Concat along one axis: per outer index, each input contributes one contiguous block.
#include <cstring>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_concat(InferenceContext& context) {
  const Node& node = context.node;
  std::optional<Dims> merged;
  std::size_t axis = 0;
  std::int64_t axis_total = 0;
  bool axis_known = true;
  for (std::size_t i = 0; i < context.inputs.size(); ++i) {
    const auto dims = input_dims(context, i);
    if (!dims) {
      axis_known = axis_known && !context.has_input(i);
      continue;
    }
    if (!merged) {
      merged = unknown_dims(dims->size());
      axis = static_cast<std::size_t>(
          normalize_axis(context.attrs().require_int("axis"), static_cast<std::int64_t>(dims->size()), node));
    } else if (dims->size() != merged->size()) {
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": inputs have different ranks " +
                                                  std::to_string(merged->size()) + " and " +
                                                  std::to_string(dims->size()));
    }
    for (std::size_t d = 0; d < dims->size(); ++d) {
      const Dim& dim = (*dims)[d];
      Dim& target = (*merged)[d];
      if (d == axis) {
        axis_known = axis_known && dim.is_static();
        if (dim.is_static()) axis_total += dim.value;
      } else if (dim.is_static() && target.is_static() && target.value != dim.value) {
        throw Error(ErrorCode::InvalidOperator, node.describe() + ": inputs differ in dimension " +
                                                    std::to_string(d) + " (" + std::to_string(target.value) + " vs " +
                                                    std::to_string(dim.value) + ")");
      } else if (!target.is_static() && (dim.is_static() || target.symbol.empty())) {
        target = dim;
      }
    }
  }
  if (merged) (*merged)[axis] = axis_known ? Dim(axis_total) : Dim();
  set_output(context, 0, context.input(0).dtype, std::move(merged));
}

void compute_concat(KernelContext& context) {
  const Node& node = context.node;
  std::vector<const Tensor*> parts;
  for (std::size_t i = 0; i < context.input_count(); ++i)
    if (context.has_input(i)) parts.push_back(context.inputs[i]);
  if (parts.empty()) throw Error(ErrorCode::InvalidOperator, node.describe() + ": has no inputs");
  const Shape& first = parts[0]->shape();
  const auto axis = static_cast<std::size_t>(
      normalize_axis(context.attrs().require_int("axis"), static_cast<std::int64_t>(first.size()), node));
  Shape out_shape = first;
  out_shape[axis] = 0;
  for (const Tensor* part : parts) {
    const Shape& shape = part->shape();
    bool compatible = shape.size() == first.size() && part->dtype() == parts[0]->dtype();
    for (std::size_t d = 0; compatible && d < shape.size(); ++d) compatible = d == axis || shape[d] == first[d];
    if (!compatible)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": cannot concatenate " + shape_to_string(first) +
                                                  " and " + shape_to_string(shape) + " on axis " + std::to_string(axis));
    out_shape[axis] += shape[axis];
  }
  Tensor out(parts[0]->dtype(), out_shape);
  std::int64_t outer = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= first[d];
  std::byte* dst = out.view().raw();
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const Tensor* part : parts) {
      const std::size_t block = part->nbytes() / static_cast<std::size_t>(outer == 0 ? 1 : outer);
      std::memcpy(dst, part->view().raw() + static_cast<std::size_t>(o) * block, block);
      dst += block;
    }
  }
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "Concat", 11, 17, infer_concat, compute_concat, data_movement_cost);

}  // namespace asc::ops
