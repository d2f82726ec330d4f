// IsNaN and IsInf: bool masks of a floating-point input.
#include <cmath>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

void isnan_compute(KernelContext& context) {
  unary_predicate_kernel<TypeSet::Floating>(context, [](auto x) { return std::isnan(x); });
}

void isinf_compute(KernelContext& context) {
  const bool positive = context.attrs().get_int("detect_positive", 1) != 0;
  const bool negative = context.attrs().get_int("detect_negative", 1) != 0;
  unary_predicate_kernel<TypeSet::Floating>(context, [&](auto x) {
    return std::isinf(x) && (x > 0 ? positive : negative);
  });
}

}  // namespace

ASC_REGISTER_OP("", "IsNaN", 11, 17, infer_bool_like_input, isnan_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "IsInf", 11, 17, infer_bool_like_input, isinf_compute, per_element_cost(element_flops::kSimple));

}  // namespace asc::ops
