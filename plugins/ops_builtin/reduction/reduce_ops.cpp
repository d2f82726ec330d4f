// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum,
// ReduceLogSumExp, ReduceSumSquare. Floating inputs accumulate in double; integers in 64-bit
// integers (double for the operators that take roots or logarithms).
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/reduction_cost.hpp"
#include "common/shape_utils.hpp"
#include "reduction/reduce_axes.hpp"

namespace asc::ops {
namespace {

enum class Reduction { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

constexpr bool takes_real_result(Reduction r) {
  return r == Reduction::L2 || r == Reduction::LogSum || r == Reduction::LogSumExp;
}

template <Reduction R, class T> using Accumulator =
    std::conditional_t<!std::is_integral_v<T> || takes_real_result(R), double,
                       std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

// Folds every input element into the accumulator of its output element: step(accumulator, value).
template <class Acc, class T, class Step>
std::vector<Acc> fold(const T* x, const ReducePlan& plan, Acc init, Step step) {
  std::vector<Acc> acc(static_cast<std::size_t>(num_elements(plan.output)), init);
  std::int64_t position = 0;
  for_each_index(plan.input, {plan.output_strides()}, [&](const std::vector<std::int64_t>& offsets) {
    step(acc[static_cast<std::size_t>(offsets[0])], static_cast<Acc>(x[position++]));
  });
  return acc;
}

template <class Acc, class T> Acc lowest() {
  if constexpr (std::is_same_v<Acc, double>) return -std::numeric_limits<double>::infinity();
  else return static_cast<Acc>(std::numeric_limits<T>::lowest());
}
template <class Acc, class T> Acc highest() {
  if constexpr (std::is_same_v<Acc, double>) return std::numeric_limits<double>::infinity();
  else return static_cast<Acc>(std::numeric_limits<T>::max());
}

template <class Acc> bool is_nan(Acc value) {
  if constexpr (std::is_same_v<Acc, double>) return std::isnan(value);
  else return false;
}

// NaN wins, as in numpy.
template <class Acc> void keep_max(Acc& acc, Acc v) {
  if (v > acc || is_nan(v)) acc = is_nan(acc) ? acc : v;
}

template <class Acc> void keep_min(Acc& acc, Acc v) {
  if (v < acc || is_nan(v)) acc = is_nan(acc) ? acc : v;
}

template <Reduction R, class T>
std::vector<Accumulator<R, T>> reduce_values(const T* x, const ReducePlan& plan) {
  using Acc = Accumulator<R, T>;
  const auto count = static_cast<Acc>(plan.group_size);
  auto sum_of = [&](auto transform) {
    return fold<Acc>(x, plan, Acc(0), [&](Acc& acc, Acc v) { acc += transform(v); });
  };
  auto finish = [](std::vector<Acc> values, auto fn) {
    for (Acc& v : values) v = fn(v);
    return values;
  };
  if constexpr (R == Reduction::Sum) {
    return sum_of([](Acc v) { return v; });
  } else if constexpr (R == Reduction::Mean) {
    // An empty reduction is 0/0: NaN in floating point, 0 for integers (which have no NaN).
    return finish(sum_of([](Acc v) { return v; }), [&](Acc v) {
      if constexpr (std::is_same_v<Acc, double>) return v / count;
      else return count == Acc(0) ? Acc(0) : v / count;
    });
  } else if constexpr (R == Reduction::SumSquare) {
    return sum_of([](Acc v) { return v * v; });
  } else if constexpr (R == Reduction::L1) {
    return sum_of([](Acc v) {
      if constexpr (std::is_unsigned_v<Acc>) return v;
      else return v < Acc(0) ? -v : v;
    });
  } else if constexpr (R == Reduction::L2) {
    return finish(sum_of([](Acc v) { return v * v; }), [](Acc v) { return std::sqrt(v); });
  } else if constexpr (R == Reduction::LogSum) {
    return finish(sum_of([](Acc v) { return v; }), [](Acc v) { return std::log(v); });
  } else if constexpr (R == Reduction::Prod) {
    return fold<Acc>(x, plan, Acc(1), [](Acc& acc, Acc v) { acc *= v; });
  } else if constexpr (R == Reduction::Max) {
    return fold<Acc>(x, plan, lowest<Acc, T>(), keep_max<Acc>);
  } else if constexpr (R == Reduction::Min) {
    return fold<Acc>(x, plan, highest<Acc, T>(), keep_min<Acc>);
  } else {
    static_assert(R == Reduction::LogSumExp);
    // Shift by the maximum so that exp never overflows.
    const std::vector<Acc> peak = fold<Acc>(x, plan, lowest<Acc, T>(), keep_max<Acc>);
    std::vector<Acc> sum(peak.size(), 0.0);
    std::int64_t position = 0;
    for_each_index(plan.input, {plan.output_strides()}, [&](const std::vector<std::int64_t>& offsets) {
      const auto slot = static_cast<std::size_t>(offsets[0]);
      sum[slot] += std::exp(static_cast<Acc>(x[position++]) - peak[slot]);
    });
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = std::isfinite(peak[i]) ? peak[i] + std::log(sum[i]) : peak[i];
    return sum;
  }
}

template <Reduction R>
Tensor reduce(const Tensor& x, const ReducePlan& plan, const Node& node) {
  if (x.dtype() == DType::Bool)
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": " + node.op_type + " does not support bool");
  if (plan.identity) return x.clone();
  Tensor out(x.dtype(), plan.output);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      const auto values = reduce_values<R, T>(x.data<T>(), plan);
      T* y = out.data<T>();
      for (std::size_t i = 0; i < values.size(); ++i) y[i] = static_cast<T>(values[i]);
    }
  });
  return out;
}

template <Reduction R, std::int64_t AxesInputOpset>
void compute(KernelContext& context) {
  context.outputs[0] = reduce<R>(context.input(0), plan_reduce(context, AxesInputOpset), context.node);
}

template <std::int64_t AxesInputOpset>
void infer(InferenceContext& context) {
  infer_reduce(context, AxesInputOpset);
}

// Flops per input element: one for the fold, plus the per-element transform. (An int, not a
// double: clang 14, which builds the sanitised trees, has no floating-point template arguments.)
template <int FlopsPerElement>
CostFacts cost(const CostContext& context) {
  return per_input_element_cost(context, FlopsPerElement);
}

// Reductions take their axes from an attribute until opset 18 — except ReduceSum, from 13.
constexpr std::int64_t kAttributeAxes = 18;

}  // namespace

ASC_REGISTER_OP("", "ReduceSum", 11, 17, infer<13>, (compute<Reduction::Sum, 13>), cost<1>);
ASC_REGISTER_OP("", "ReduceMean", 11, 17, infer<kAttributeAxes>, (compute<Reduction::Mean, kAttributeAxes>), cost<1>);
ASC_REGISTER_OP("", "ReduceMax", 11, 17, infer<kAttributeAxes>, (compute<Reduction::Max, kAttributeAxes>), cost<1>);
ASC_REGISTER_OP("", "ReduceMin", 11, 17, infer<kAttributeAxes>, (compute<Reduction::Min, kAttributeAxes>), cost<1>);
ASC_REGISTER_OP("", "ReduceProd", 11, 17, infer<kAttributeAxes>, (compute<Reduction::Prod, kAttributeAxes>), cost<1>);
ASC_REGISTER_OP("", "ReduceL1", 11, 17, infer<kAttributeAxes>, (compute<Reduction::L1, kAttributeAxes>), cost<2>);
ASC_REGISTER_OP("", "ReduceL2", 11, 17, infer<kAttributeAxes>, (compute<Reduction::L2, kAttributeAxes>), cost<2>);
ASC_REGISTER_OP("", "ReduceLogSum", 11, 17, infer<kAttributeAxes>, (compute<Reduction::LogSum, kAttributeAxes>), cost<1>);
ASC_REGISTER_OP("", "ReduceLogSumExp", 11, 17, infer<kAttributeAxes>, (compute<Reduction::LogSumExp, kAttributeAxes>), cost<4>);
ASC_REGISTER_OP("", "ReduceSumSquare", 11, 17, infer<kAttributeAxes>, (compute<Reduction::SumSquare, kAttributeAxes>), cost<2>);

}  // namespace asc::ops
