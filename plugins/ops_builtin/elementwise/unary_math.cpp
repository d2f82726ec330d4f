// Unary math: Abs Neg Exp Log Sqrt Reciprocal Floor Ceil Round Sign Erf.
#include <cmath>
#include <functional>
#include <type_traits>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

using namespace element_flops;

void abs_compute(KernelContext& context) {
  unary_kernel<TypeSet::Numeric>(context, [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_unsigned_v<C>) return x;
    else return x < C(0) ? wrapping(C(0), x, std::minus<>{}) : x;
  });
}

void neg_compute(KernelContext& context) {
  unary_kernel<TypeSet::Signed>(context, [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_integral_v<C>) return wrapping(C(0), x, std::minus<>{});
    else return -x;
  });
}

void sign_compute(KernelContext& context) {
  unary_kernel<TypeSet::Numeric>(context, [](auto x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(x)) return x;
    }
    return static_cast<C>((C(0) < x) - (x < C(0)));
  });
}

void exp_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::exp(x); });
}

void log_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::log(x); });
}

void sqrt_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::sqrt(x); });
}

void reciprocal_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return decltype(x)(1) / x; });
}

void floor_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::floor(x); });
}

void ceil_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::ceil(x); });
}

// Halves round to even (the default floating-point rounding mode), as ONNX specifies.
void round_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::nearbyint(x); });
}

// Integer inputs are allowed by the schema; erf of an integer is computed in double and
// converted back (truncating toward zero).
void erf_compute(KernelContext& context) {
  unary_kernel<TypeSet::Numeric>(context, [](auto x) { return std::erf(x); });
}

}  // namespace

ASC_REGISTER_OP("", "Abs", 11, 17, infer_like_input, abs_compute, per_element_cost(kSimple));
ASC_REGISTER_OP("", "Neg", 11, 17, infer_like_input, neg_compute, per_element_cost(kSimple));
ASC_REGISTER_OP("", "Sign", 11, 17, infer_like_input, sign_compute, per_element_cost(kSimple));
ASC_REGISTER_OP("", "Exp", 11, 17, infer_like_input, exp_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Log", 11, 17, infer_like_input, log_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Sqrt", 11, 17, infer_like_input, sqrt_compute, per_element_cost(kDivide));
ASC_REGISTER_OP("", "Reciprocal", 11, 17, infer_like_input, reciprocal_compute, per_element_cost(kDivide));
ASC_REGISTER_OP("", "Floor", 11, 17, infer_like_input, floor_compute, per_element_cost(kSimple));
ASC_REGISTER_OP("", "Ceil", 11, 17, infer_like_input, ceil_compute, per_element_cost(kSimple));
ASC_REGISTER_OP("", "Round", 11, 17, infer_like_input, round_compute, per_element_cost(kSimple));
ASC_REGISTER_OP("", "Erf", 11, 17, infer_like_input, erf_compute, per_element_cost(kTranscendental));

}  // namespace asc::ops
