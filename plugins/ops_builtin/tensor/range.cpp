// Range: start, start + delta, ... below limit (above it for negative delta), with
// max(ceil((limit - start) / delta), 0) elements of the scalars' type.
#include <cmath>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/elementwise.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

// Integers count exactly; floating types in double, as numpy's arange does.
std::int64_t range_length(const Tensor& start, const Tensor& limit, const Tensor& delta, const Node& node) {
  if (start.numel() != 1 || limit.numel() != 1 || delta.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": start, limit and delta must be scalars");
  if (is_integral(start.dtype())) {
    const std::int64_t first = start.to_int64s()[0];
    const std::int64_t last = limit.to_int64s()[0];
    const std::int64_t step = delta.to_int64s()[0];
    if (step == 0) throw Error(ErrorCode::InvalidOperator, node.describe() + ": delta is 0");
    const std::int64_t span = last - first;
    if ((span > 0) != (step > 0) || span == 0) return 0;
    return (span + step + (step > 0 ? -1 : 1)) / step;
  }
  const double step = delta.to_doubles()[0];
  if (step == 0) throw Error(ErrorCode::InvalidOperator, node.describe() + ": delta is 0");
  const double count = std::ceil((limit.to_doubles()[0] - start.to_doubles()[0]) / step);
  if (!(count > 0)) return 0;
  if (count > 1e15) throw Error(ErrorCode::InvalidOperator, node.describe() + ": range is too long");
  return static_cast<std::int64_t>(count);
}

void infer_range(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const Tensor* start = context.input_value(0);
  const Tensor* limit = context.input_value(1);
  const Tensor* delta = context.input_value(2);
  Dim length;
  if (start != nullptr && limit != nullptr && delta != nullptr)
    length = range_length(*start, *limit, *delta, context.node);
  set_output(context, 0, dtype, Dims{length});
}

void compute_range(KernelContext& context) {
  const Tensor& start = context.input(0);
  const Tensor& delta = context.input(2);
  const std::int64_t length = range_length(start, context.input(1), delta, context.node);
  Tensor out(start.dtype(), {length});
  dispatch<TypeSet::Numeric>(start.dtype(), context.node, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* values = out.data<T>();
    if constexpr (std::is_integral_v<T>) {
      const std::int64_t first = start.to_int64s()[0];
      const std::int64_t step = delta.to_int64s()[0];
      for (std::int64_t i = 0; i < length; ++i) values[i] = static_cast<T>(first + i * step);
    } else {
      const double first = start.to_doubles()[0];
      const double step = delta.to_doubles()[0];
      for (std::int64_t i = 0; i < length; ++i) values[i] = static_cast<T>(first + static_cast<double>(i) * step);
    }
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "Range", 11, 17, infer_range, compute_range, data_movement_cost);

}  // namespace asc::ops
