// Min Max Sum Mean over one or more inputs with numpy broadcasting, folded pairwise. Sum and
// Mean of float16/bfloat16 accumulate in float and round once at the end.
#include <algorithm>
#include <string>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

// Folds inputs left to right with fn (taking compute_t values); one input is copied.
template <TypeSet S, class Fn> Tensor fold_inputs(const KernelContext& context, const std::vector<Tensor>& inputs, Fn fn) {
  require_type_set<S>(inputs.front().dtype(), context.node);
  Tensor result = inputs.front().clone();
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    const Tensor& next = inputs[i];
    dispatch<S>(result.dtype(), context.node, [&](auto tag) {
      using T = typename decltype(tag)::type;
      Tensor folded(result.dtype(), broadcast_shapes(result.shape(), next.shape(), context.node));
      broadcast_binary<T, T, T>(result, next, folded, fn, context.threads);
      result = std::move(folded);
    });
  }
  return result;
}

// The present inputs, which must share a dtype, converted to compute_as unless Undefined.
std::vector<Tensor> present_inputs(const KernelContext& context, DType compute_as = DType::Undefined) {
  std::vector<Tensor> inputs;
  for (std::size_t i = 0; i < context.input_count(); ++i) {
    if (!context.has_input(i)) continue;
    const Tensor& input = context.input(i);
    if (input.dtype() != context.input(0).dtype())
      throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": inputs have different dtypes " +
                                                  std::string(dtype_name(context.input(0).dtype())) + " and " +
                                                  std::string(dtype_name(input.dtype())));
    inputs.push_back(compute_as == DType::Undefined || input.dtype() == compute_as ? input : input.cast(compute_as));
  }
  if (inputs.empty()) throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": needs at least one input");
  return inputs;
}

// Half-precision sums accumulate in float.
DType accumulation_dtype(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 ? DType::Float32 : DType::Undefined;
}

// NaN propagates, as in numpy.minimum / numpy.maximum.
void min_compute(KernelContext& context) {
  context.outputs[0] = fold_inputs<TypeSet::Numeric>(context, present_inputs(context), [](auto a, auto b) {
    return (a < b || a != a) ? a : b;
  });
}

void max_compute(KernelContext& context) {
  context.outputs[0] = fold_inputs<TypeSet::Numeric>(context, present_inputs(context), [](auto a, auto b) {
    return (a > b || a != a) ? a : b;
  });
}

Tensor sum_of_inputs(const KernelContext& context, DType accumulate_as) {
  return fold_inputs<TypeSet::Floating>(context, present_inputs(context, accumulate_as),
                                        [](auto a, auto b) { return a + b; });
}

void sum_compute(KernelContext& context) {
  const DType dtype = context.input(0).dtype();
  const DType accumulate_as = accumulation_dtype(dtype);
  Tensor sum = sum_of_inputs(context, accumulate_as);
  context.outputs[0] = accumulate_as == DType::Undefined ? std::move(sum) : sum.cast(dtype);
}

void mean_compute(KernelContext& context) {
  const DType dtype = context.input(0).dtype();
  const DType accumulate_as = accumulation_dtype(dtype);
  Tensor sum = sum_of_inputs(context, accumulate_as);
  std::size_t count = 0;
  for (std::size_t i = 0; i < context.input_count(); ++i) count += context.has_input(i) ? 1 : 0;
  dispatch<TypeSet::Floating>(sum.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    map_elements<T, T>(sum, sum, [count](auto x) { return x / static_cast<decltype(x)>(count); }, context.threads);
  });
  context.outputs[0] = accumulate_as == DType::Undefined ? std::move(sum) : sum.cast(dtype);
}

std::int64_t present_input_count(const CostContext& context) {
  std::int64_t count = 0;
  for (const ValueInfo* input : context.inputs) count += input != nullptr ? 1 : 0;
  return count;
}

// One operation per output element for every input after the first (Mean adds the scaling).
CostFacts fold_cost(const CostContext& context) {
  return elementwise_cost(context, static_cast<double>(std::max<std::int64_t>(present_input_count(context) - 1, 1)));
}

CostFacts mean_cost(const CostContext& context) {
  return elementwise_cost(context, static_cast<double>(present_input_count(context)));
}

}  // namespace

ASC_REGISTER_OP("", "Min", 11, 17, infer_broadcast, min_compute, fold_cost);
ASC_REGISTER_OP("", "Max", 11, 17, infer_broadcast, max_compute, fold_cost);
ASC_REGISTER_OP("", "Sum", 11, 17, infer_broadcast, sum_compute, fold_cost);
ASC_REGISTER_OP("", "Mean", 11, 17, infer_broadcast, mean_compute, mean_cost);

}  // namespace asc::ops
