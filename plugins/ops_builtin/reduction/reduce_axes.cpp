#include "reduction/reduce_axes.hpp"

#include <optional>

#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

// std::nullopt when no axes are given at all (the attribute or input is absent).
template <class Context>
std::optional<std::vector<std::int64_t>> given_axes(const Context& context, std::int64_t axes_input_opset,
                                                    bool& known) {
  known = true;
  if (context.opset >= axes_input_opset) {
    if (!context.has_input(1)) return std::nullopt;
    if constexpr (std::is_same_v<Context, InferenceContext>) {
      const Tensor* value = context.input_value(1);
      if (value == nullptr) {
        known = false;
        return std::nullopt;
      }
      return value->to_int64s();
    } else {
      return context.input(1).to_int64s();
    }
  }
  if (!context.attrs().has("axes")) return std::nullopt;
  return context.attrs().get_ints("axes");
}

// Per dimension: reduced or not; all dims for empty axes. Sets identity for the noop case.
std::vector<bool> reduced_dims(const std::optional<std::vector<std::int64_t>>& axes, std::int64_t rank, bool noop,
                               const Node& node, bool& identity) {
  identity = false;
  if (!axes || axes->empty()) {
    identity = noop;
    return std::vector<bool>(static_cast<std::size_t>(rank), !noop);
  }
  std::vector<bool> reduced(static_cast<std::size_t>(rank), false);
  for (const std::int64_t axis : normalize_axes(*axes, rank, node)) reduced[static_cast<std::size_t>(axis)] = true;
  return reduced;
}

}  // namespace

Shape ReducePlan::output_strides() const {
  Shape kept = input;
  for (std::size_t d = 0; d < kept.size(); ++d)
    if (reduced[d]) kept[d] = 1;
  Shape strides = contiguous_strides(kept);
  for (std::size_t d = 0; d < strides.size(); ++d)
    if (reduced[d]) strides[d] = 0;
  return strides;
}

ReducePlan plan_reduce(const KernelContext& context, std::int64_t axes_input_opset) {
  bool known = true;
  const auto axes = given_axes(context, axes_input_opset, known);
  ReducePlan plan;
  plan.input = context.input(0).shape();
  const bool keepdims = context.attrs().get_int("keepdims", 1) != 0;
  const bool noop = context.attrs().get_int("noop_with_empty_axes", 0) != 0;
  plan.reduced = reduced_dims(axes, static_cast<std::int64_t>(plan.input.size()), noop, context.node, plan.identity);
  if (plan.identity) {
    plan.output = plan.input;
    return plan;
  }
  for (std::size_t d = 0; d < plan.input.size(); ++d) {
    if (plan.reduced[d]) plan.group_size *= plan.input[d];
    if (!plan.reduced[d]) plan.output.push_back(plan.input[d]);
    else if (keepdims) plan.output.push_back(1);
  }
  return plan;
}

void infer_reduce(InferenceContext& context, std::int64_t axes_input_opset) {
  const ValueInfo& x = context.input(0);
  context.outputs[0].dtype = x.dtype;
  if (!x.shape) return;
  const auto rank = static_cast<std::int64_t>(x.shape->size());
  const bool keepdims = context.attrs().get_int("keepdims", 1) != 0;
  const bool noop = context.attrs().get_int("noop_with_empty_axes", 0) != 0;
  bool known = true;
  const auto axes = given_axes(context, axes_input_opset, known);
  if (!known) {
    // Axes come from a runtime input: with keepdims the rank survives, nothing else is known.
    if (keepdims) context.outputs[0].shape = std::vector<Dim>(static_cast<std::size_t>(rank));
    return;
  }
  bool identity = false;
  const std::vector<bool> reduced = reduced_dims(axes, rank, noop, context.node, identity);
  std::vector<Dim> out;
  for (std::size_t d = 0; d < reduced.size(); ++d) {
    if (!reduced[d]) out.push_back((*x.shape)[d]);
    else if (keepdims) out.push_back(Dim(1));
  }
  context.outputs[0].shape = out;
}

}  // namespace asc::ops
