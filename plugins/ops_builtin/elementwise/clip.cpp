// Clip: y = min(max(x, min), max). Before opset 11 the bounds are float attributes; from 11 they
// are optional scalar inputs of x's type. Registered from opset 6 so both forms are served.
// As numpy.clip, a min above max yields max everywhere; NaN passes through.
#include <algorithm>
#include <limits>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

template <class T> compute_t<T> bound_input(const KernelContext& context, std::size_t index, compute_t<T> fallback) {
  if (!context.has_input(index)) return fallback;
  const Tensor& bound = context.input(index);
  if (bound.dtype() != context.input(0).dtype() || bound.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": input " + std::to_string(index) +
                                                " must be a scalar of the input's dtype");
  return static_cast<compute_t<T>>(bound.data<T>()[0]);
}

void clip_compute(KernelContext& context) {
  const Tensor input = dense_layout(context.input(0));
  const bool attribute_form = context.opset < 11;
  if (attribute_form && !is_floating(input.dtype())) throw_dtype_unsupported(context.node, input.dtype());
  dispatch<TypeSet::Numeric>(input.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    C lo = std::numeric_limits<C>::lowest();
    C hi = std::numeric_limits<C>::max();
    if (attribute_form) {
      if constexpr (std::is_floating_point_v<C>) {
        if (context.attrs().has("min")) lo = static_cast<C>(context.attrs().require_float("min"));
        if (context.attrs().has("max")) hi = static_cast<C>(context.attrs().require_float("max"));
      }
    } else {
      lo = bound_input<T>(context, 1, lo);
      hi = bound_input<T>(context, 2, hi);
    }
    Tensor output = uninitialized_like(input, input.dtype());
    map_elements<T, T>(input, output, [=](C x) { return std::min(std::max(x, lo), hi); }, context.threads);
    context.outputs[0] = std::move(output);
  });
}

}  // namespace

ASC_REGISTER_OP_CHANNELS_LAST("", "Clip", 6, 17, infer_like_input, clip_compute,
                              per_element_cost(2 * element_flops::kSimple), kChannelsLastInput0);

}  // namespace asc::ops
