// Comparisons with numpy broadcasting and bool outputs: Equal Less Greater LessOrEqual
// GreaterOrEqual. float16/bfloat16 compare as float (exact).
#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

void equal_compute(KernelContext& context) {
  binary_kernel<TypeSet::Any, true>(context, [](auto a, auto b) { return a == b; });
}
void less_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric, true>(context, [](auto a, auto b) { return a < b; });
}
void greater_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric, true>(context, [](auto a, auto b) { return a > b; });
}
void less_or_equal_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric, true>(context, [](auto a, auto b) { return a <= b; });
}
void greater_or_equal_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric, true>(context, [](auto a, auto b) { return a >= b; });
}

}  // namespace

ASC_REGISTER_OP("", "Equal", 11, 17, infer_broadcast_bool, equal_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "Less", 11, 17, infer_broadcast_bool, less_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "Greater", 11, 17, infer_broadcast_bool, greater_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "LessOrEqual", 12, 17, infer_broadcast_bool, less_or_equal_compute,
                per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "GreaterOrEqual", 12, 17, infer_broadcast_bool, greater_or_equal_compute,
                per_element_cost(element_flops::kSimple));

}  // namespace asc::ops
