// Boolean logic: And Or Xor (with numpy broadcasting) and Not.
#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

void and_compute(KernelContext& context) {
  binary_kernel<TypeSet::Bool>(context, [](bool a, bool b) { return a && b; });
}
void or_compute(KernelContext& context) {
  binary_kernel<TypeSet::Bool>(context, [](bool a, bool b) { return a || b; });
}
void xor_compute(KernelContext& context) {
  binary_kernel<TypeSet::Bool>(context, [](bool a, bool b) { return a != b; });
}
void not_compute(KernelContext& context) {
  unary_kernel<TypeSet::Bool>(context, [](bool a) { return !a; });
}

}  // namespace

ASC_REGISTER_OP("", "And", 11, 17, infer_broadcast, and_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "Or", 11, 17, infer_broadcast, or_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "Xor", 11, 17, infer_broadcast, xor_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "Not", 11, 17, infer_like_input, not_compute, per_element_cost(element_flops::kSimple));

}  // namespace asc::ops
