// Pow: base ** exponent with numpy broadcasting; the output has the base's dtype and the
// exponent may have any numeric dtype (opset 12+). Integer bases with non-negative integral
// exponents are computed exactly (wrapping like numpy); other integer cases go through double
// and truncate toward zero.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

template <class C> C integer_power(C base, std::uint64_t exponent) {
  using U = std::make_unsigned_t<C>;
  U result = 1;
  U factor = static_cast<U>(base);
  while (exponent != 0) {
    if (exponent & 1u) result = static_cast<U>(result * factor);
    factor = static_cast<U>(factor * factor);
    exponent >>= 1;
  }
  return static_cast<C>(result);
}

template <class C> C truncate_to(double value) {
  if (std::isnan(value)) return C(0);
  const double truncated = std::trunc(value);
  if (truncated <= static_cast<double>(std::numeric_limits<C>::lowest())) return std::numeric_limits<C>::lowest();
  if (truncated >= static_cast<double>(std::numeric_limits<C>::max())) return std::numeric_limits<C>::max();
  return static_cast<C>(truncated);
}

template <class C> C power(C base, double exponent) {
  if constexpr (std::is_integral_v<C>) {
    if (exponent >= 0 && exponent == std::trunc(exponent) && exponent < 0x1p64)
      return integer_power(base, static_cast<std::uint64_t>(exponent));
    return truncate_to<C>(std::pow(static_cast<double>(base), exponent));
  } else {
    return static_cast<C>(std::pow(static_cast<double>(base), exponent));
  }
}

void pow_infer(InferenceContext& context) {
  context.outputs[0].dtype = context.input(0).dtype;
  context.outputs[0].shape = broadcast_input_dims(context);
}

void pow_compute(KernelContext& context) {
  const Tensor& base = context.input(0);
  const Tensor& raw_exponent = context.input(1);
  require_type_set<TypeSet::Numeric>(raw_exponent.dtype(), context.node);
  const Tensor exponent = raw_exponent.dtype() == DType::Float64 ? raw_exponent : raw_exponent.cast(DType::Float64);
  const Shape shape = broadcast_shapes(base.shape(), exponent.shape(), context.node);
  dispatch<TypeSet::Numeric>(base.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor output(base.dtype(), shape);
    broadcast_binary<T, double, T>(base, exponent, output, [](auto b, double e) { return power(b, e); },
                                   context.threads);
    context.outputs[0] = std::move(output);
  });
}

}  // namespace

// exp(e * log(b)): two transcendental evaluations and a multiply.
ASC_REGISTER_OP("", "Pow", 11, 17, pow_infer, pow_compute,
                per_element_cost(2 * element_flops::kTranscendental + element_flops::kSimple));

}  // namespace asc::ops
