// Mod with numpy broadcasting. fmod=0 (integers only): the remainder takes the divisor's sign,
// like Python's %. fmod=1: the remainder takes the dividend's sign, like C's fmod / %.
#include <cmath>
#include <type_traits>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

void mod_compute(KernelContext& context) {
  const bool c_fmod = context.attrs().get_int("fmod", 0) != 0;
  if (!c_fmod && is_floating(context.input(0).dtype()))
    throw Error(ErrorCode::InvalidOperator,
                context.node.describe() + ": floating-point inputs require attribute fmod=1");
  binary_kernel<TypeSet::Numeric>(context, [&](auto a, auto b) {
    using C = decltype(a);
    if constexpr (std::is_floating_point_v<C>) {
      return std::fmod(a, b);
    } else {
      if (b == C(0)) throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": integer modulo by zero");
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return C(0);  // INT_MIN % -1 traps
        C remainder = static_cast<C>(a % b);
        if (!c_fmod && remainder != 0 && ((remainder < 0) != (b < 0))) remainder = static_cast<C>(remainder + b);
        return remainder;
      } else {
        return static_cast<C>(a % b);
      }
    }
  });
}

}  // namespace

ASC_REGISTER_OP("", "Mod", 11, 17, infer_broadcast, mod_compute, per_element_cost(element_flops::kDivide));

}  // namespace asc::ops
