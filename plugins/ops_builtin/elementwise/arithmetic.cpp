// Add Sub Mul Div with numpy broadcasting. Integer results wrap on overflow; integer Div
// truncates toward zero (C semantics, as onnxruntime) and refuses a zero divisor.
#include <functional>
#include <type_traits>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

using namespace element_flops;

void add_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric>(context, [](auto a, auto b) { return wrapping(a, b, std::plus<>{}); });
}

void sub_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric>(context, [](auto a, auto b) { return wrapping(a, b, std::minus<>{}); });
}

void mul_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric>(context, [](auto a, auto b) { return wrapping(a, b, std::multiplies<>{}); });
}

void div_compute(KernelContext& context) {
  binary_kernel<TypeSet::Numeric>(context, [&](auto a, auto b) {
    using C = decltype(a);
    if constexpr (std::is_integral_v<C>) {
      if (b == C(0))
        throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": integer division by zero");
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return wrapping(C(0), a, std::minus<>{});  // INT_MIN / -1 traps
      }
      return static_cast<C>(a / b);
    } else {
      return a / b;
    }
  });
}

}  // namespace

ASC_REGISTER_OP_CHANNELS_LAST("", "Add", 11, 17, infer_broadcast, add_compute, per_element_cost(kSimple),
                              kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Sub", 11, 17, infer_broadcast, sub_compute, per_element_cost(kSimple),
                              kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Mul", 11, 17, infer_broadcast, mul_compute, per_element_cost(kSimple),
                              kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Div", 11, 17, infer_broadcast, div_compute, per_element_cost(kDivide),
                              kChannelsLastAllInputs);

}  // namespace asc::ops
