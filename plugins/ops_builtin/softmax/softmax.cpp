// Softmax, LogSoftmax and Hardmax. Before opset 13 the input is coerced to 2-D at `axis`
// (default 1) and the operator runs over each row of that matrix; from opset 13 it runs along
// the single dimension `axis` (default -1). Computed in double, shifted by the maximum.
#include <cmath>
#include <string>

#include <asc/sdk/error.hpp>

#include "common/reduction_cost.hpp"
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

enum class Kind { Softmax, LogSoftmax, Hardmax };

// The operator runs over `length` elements spaced `inner` apart, for outer * inner lines.
struct Lines {
  std::int64_t outer = 1;
  std::int64_t length = 1;
  std::int64_t inner = 1;
};

Lines lines_of(const Shape& shape, std::int64_t opset, const Node& node) {
  const auto rank = static_cast<std::int64_t>(shape.size());
  const std::int64_t axis = normalize_axis(node.attributes.get_int("axis", opset < 13 ? 1 : -1), rank, node);
  Lines lines;
  for (std::int64_t d = 0; d < axis; ++d) lines.outer *= shape[static_cast<std::size_t>(d)];
  if (opset < 13) {
    for (std::int64_t d = axis; d < rank; ++d) lines.length *= shape[static_cast<std::size_t>(d)];
    return lines;
  }
  if (rank > 0) lines.length = shape[static_cast<std::size_t>(axis)];
  for (std::int64_t d = axis + 1; d < rank; ++d) lines.inner *= shape[static_cast<std::size_t>(d)];
  return lines;
}

template <Kind K>
void apply(const std::vector<double>& x, std::vector<double>& y, const Lines& lines) {
  for (std::int64_t o = 0; o < lines.outer; ++o)
    for (std::int64_t i = 0; i < lines.inner; ++i) {
      const std::int64_t base = o * lines.length * lines.inner + i;
      auto at = [&](std::int64_t j) { return static_cast<std::size_t>(base + j * lines.inner); };
      if (lines.length == 0) continue;
      std::int64_t arg_max = 0;
      for (std::int64_t j = 1; j < lines.length; ++j)
        if (x[at(j)] > x[at(arg_max)]) arg_max = j;
      const double peak = x[at(arg_max)];
      if constexpr (K == Kind::Hardmax) {
        y[at(arg_max)] = 1.0;  // the rest stays 0
      } else {
        double sum = 0.0;
        for (std::int64_t j = 0; j < lines.length; ++j) {
          y[at(j)] = std::exp(x[at(j)] - peak);
          sum += y[at(j)];
        }
        if constexpr (K == Kind::Softmax) {
          for (std::int64_t j = 0; j < lines.length; ++j) y[at(j)] /= sum;
        } else {
          const double log_sum = std::log(sum);
          for (std::int64_t j = 0; j < lines.length; ++j) y[at(j)] = x[at(j)] - peak - log_sum;
        }
      }
    }
}

void infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  if (x.shape) normalize_axis(context.attrs().get_int("axis", context.opset < 13 ? 1 : -1),
                              static_cast<std::int64_t>(x.shape->size()), context.node);
  context.outputs[0].dtype = x.dtype;
  context.outputs[0].shape = x.shape;
}

template <Kind K>
void compute(KernelContext& context) {
  const Tensor& x = context.input(0);
  if (!is_floating(x.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported, context.node.describe() + ": " + context.node.op_type +
                                                         " does not support " + std::string(dtype_name(x.dtype())));
  const Lines lines = lines_of(x.shape(), context.opset, context.node);
  const std::vector<double> values = x.to_doubles();
  std::vector<double> result(values.size(), 0.0);
  apply<K>(values, result, lines);
  context.outputs[0] = Tensor::from_vector(x.shape(), result).cast(x.dtype());
}

// Max, subtract, exp, sum and divide per element.
CostFacts softmax_cost(const CostContext& context) { return per_input_element_cost(context, 5.0); }
// Max and a compare-and-write per element.
CostFacts hardmax_cost(const CostContext& context) { return per_input_element_cost(context, 2.0); }

}  // namespace

ASC_REGISTER_OP("", "Softmax", 11, 17, infer, compute<Kind::Softmax>, softmax_cost);
ASC_REGISTER_OP("", "LogSoftmax", 11, 17, infer, compute<Kind::LogSoftmax>, softmax_cost);
ASC_REGISTER_OP("", "Hardmax", 11, 17, infer, compute<Kind::Hardmax>, hardmax_cost);

}  // namespace asc::ops
