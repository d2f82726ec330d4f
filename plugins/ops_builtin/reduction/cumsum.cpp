// CumSum along the axis given as input 1, inclusive or exclusive, forward or reversed.
// Floating inputs accumulate in double, integers in 64-bit integers.
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/reduction_cost.hpp"
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

std::int64_t axis_of(const KernelContext& context) {
  const Tensor& axis = context.input(1);
  if (axis.numel() != 1 || !is_integral(axis.dtype()))
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": axis must be a single integer, got " +
                                                std::string(dtype_name(axis.dtype())) + shape_to_string(axis.shape()));
  return normalize_axis(axis.to_int64s()[0], context.input(0).rank(), context.node);
}

void cumsum_infer(InferenceContext& context) {
  context.outputs[0].dtype = context.input(0).dtype;
  context.outputs[0].shape = context.input(0).shape;
}

void cumsum_compute(KernelContext& context) {
  const Tensor& x = context.input(0);
  if (x.dtype() == DType::Bool)
    throw Error(ErrorCode::OperatorDtypeUnsupported, context.node.describe() + ": CumSum does not support bool");
  const std::int64_t axis = axis_of(context);
  const bool exclusive = context.attrs().get_int("exclusive", 0) != 0;
  const bool reverse = context.attrs().get_int("reverse", 0) != 0;
  const Shape& shape = x.shape();
  const std::int64_t length = x.rank() == 0 ? 1 : shape[static_cast<std::size_t>(axis)];
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<std::size_t>(d)];
  for (std::int64_t d = axis + 1; d < x.rank(); ++d) inner *= shape[static_cast<std::size_t>(d)];

  Tensor out(x.dtype(), shape);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      using Acc = std::conditional_t<std::is_integral_v<T>,
                                     std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>, double>;
      const T* in = x.data<T>();
      T* y = out.data<T>();
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
          Acc sum = 0;
          for (std::int64_t step = 0; step < length; ++step) {
            const std::int64_t j = reverse ? length - 1 - step : step;
            const std::int64_t at = (o * length + j) * inner + i;
            if (exclusive) y[at] = static_cast<T>(sum);
            sum += static_cast<Acc>(in[at]);
            if (!exclusive) y[at] = static_cast<T>(sum);
          }
        }
    }
  });
  context.outputs[0] = out;
}

CostFacts cumsum_cost(const CostContext& context) {
  return per_input_element_cost(context, 1.0);
}

}  // namespace

ASC_REGISTER_OP("", "CumSum", 11, 17, cumsum_infer, cumsum_compute, cumsum_cost);

}  // namespace asc::ops
