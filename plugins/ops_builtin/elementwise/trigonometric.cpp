// Trigonometric and hyperbolic functions and their inverses, each charged as one transcendental
// evaluation per element.
#include <cmath>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

using element_flops::kTranscendental;

void sin_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::sin(x); }); }
void cos_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::cos(x); }); }
void tan_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::tan(x); }); }
void asin_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::asin(x); }); }
void acos_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::acos(x); }); }
void atan_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::atan(x); }); }
void sinh_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::sinh(x); }); }
void cosh_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::cosh(x); }); }
void asinh_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::asinh(x); }); }
void acosh_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::acosh(x); }); }
void atanh_compute(KernelContext& context) { unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::atanh(x); }); }

}  // namespace

ASC_REGISTER_OP("", "Sin", 11, 17, infer_like_input, sin_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Cos", 11, 17, infer_like_input, cos_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Tan", 11, 17, infer_like_input, tan_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Asin", 11, 17, infer_like_input, asin_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Acos", 11, 17, infer_like_input, acos_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Atan", 11, 17, infer_like_input, atan_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Sinh", 11, 17, infer_like_input, sinh_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Cosh", 11, 17, infer_like_input, cosh_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Asinh", 11, 17, infer_like_input, asinh_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Acosh", 11, 17, infer_like_input, acosh_compute, per_element_cost(kTranscendental));
ASC_REGISTER_OP("", "Atanh", 11, 17, infer_like_input, atanh_compute, per_element_cost(kTranscendental));

}  // namespace asc::ops
