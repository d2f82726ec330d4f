// ArgMax and ArgMin along one axis (keepdims, select_last_index from opset 12), int64 indices.
#include <cmath>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/reduction_cost.hpp"
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

template <bool Largest>
void arg_extreme_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  context.outputs[0].dtype = DType::Int64;
  if (!x.shape) return;
  const auto rank = static_cast<std::int64_t>(x.shape->size());
  const std::int64_t axis = normalize_axis(context.attrs().get_int("axis", 0), rank, context.node);
  std::vector<Dim> out = *x.shape;
  if (context.attrs().get_int("keepdims", 1) != 0) out[static_cast<std::size_t>(axis)] = Dim(1);
  else out.erase(out.begin() + axis);
  context.outputs[0].shape = out;
}

template <bool Largest>
void arg_extreme_compute(KernelContext& context) {
  const Tensor& x = context.input(0);
  const Node& node = context.node;
  if (x.dtype() == DType::Bool)
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": " + node.op_type + " does not support bool");
  const Shape& shape = x.shape();
  const std::int64_t axis = normalize_axis(context.attrs().get_int("axis", 0), x.rank(), node);
  const bool keepdims = context.attrs().get_int("keepdims", 1) != 0;
  const bool last = context.attrs().get_int("select_last_index", 0) != 0;
  const std::int64_t length = x.rank() == 0 ? 1 : shape[static_cast<std::size_t>(axis)];
  if (length == 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": cannot take " + node.op_type + " over an empty axis");

  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<std::size_t>(d)];
  for (std::int64_t d = axis + 1; d < x.rank(); ++d) inner *= shape[static_cast<std::size_t>(d)];
  Shape out_shape = shape;
  if (x.rank() > 0) {
    if (keepdims) out_shape[static_cast<std::size_t>(axis)] = 1;
    else out_shape.erase(out_shape.begin() + axis);
  }
  Tensor out(DType::Int64, out_shape);
  std::int64_t* indices = out.data<std::int64_t>();

  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* values = x.data<T>();
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        const T* base = values + o * length * inner + i;
        std::int64_t best = 0;
        for (std::int64_t j = 1; j < length; ++j) {
          const T candidate = base[j * inner];
          const T current = base[best * inner];
          const bool better = Largest ? candidate > current : candidate < current;
          if (better || (last && candidate == current)) best = j;
        }
        indices[o * inner + i] = best;
      }
  });
  context.outputs[0] = out;
}

// One comparison per input element.
CostFacts arg_extreme_cost(const CostContext& context) {
  return per_input_element_cost(context, 1.0);
}

}  // namespace

ASC_REGISTER_OP("", "ArgMax", 11, 17, arg_extreme_infer<true>, arg_extreme_compute<true>, arg_extreme_cost);
ASC_REGISTER_OP("", "ArgMin", 11, 17, arg_extreme_infer<false>, arg_extreme_compute<false>, arg_extreme_cost);

}  // namespace asc::ops
