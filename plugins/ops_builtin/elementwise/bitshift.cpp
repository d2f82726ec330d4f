// BitShift on unsigned integers with numpy broadcasting. Shifting by the bit width or more
// gives 0 (numpy's result) instead of C++'s undefined behaviour.
#include <string>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

void bitshift_compute(KernelContext& context) {
  const std::string& direction = context.attrs().require_string("direction");
  if (direction != "LEFT" && direction != "RIGHT")
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": attribute 'direction' must be LEFT or RIGHT, got '" +
                                                direction + "'");
  const bool left = direction == "LEFT";
  binary_kernel<TypeSet::UnsignedInt>(context, [left](auto x, auto shift) {
    using C = decltype(x);
    if (shift >= sizeof(C) * 8) return C(0);
    return left ? static_cast<C>(x << shift) : static_cast<C>(x >> shift);
  });
}

}  // namespace

ASC_REGISTER_OP("", "BitShift", 11, 17, infer_broadcast, bitshift_compute, per_element_cost(element_flops::kSimple));

}  // namespace asc::ops
