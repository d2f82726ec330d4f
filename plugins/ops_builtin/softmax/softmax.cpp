// Softmax, LogSoftmax and Hardmax. Before opset 13 the input is coerced to 2-D at `axis`
// (default 1) and the operator runs over each row of that matrix; from opset 13 it runs along
// the single dimension `axis` (default -1). Shifted by the maximum; lines are shared between the
// kernel's threads. Softmax of float32 along contiguous lines (the last axis: attention) runs in
// float with a vectorised exp (within 2 ulp); everything else is computed in double.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>
#include <asc/sdk/vector_math.hpp>

#include "common/reduction_cost.hpp"
#include "common/shape_utils.hpp"
#include "common/uninitialized_tensor.hpp"

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

// One line: `length` elements from x and into y, `stride` apart. Computed in double whatever T.
template <Kind K, class T>
void apply_line(const T* x, T* y, std::int64_t length, std::int64_t stride) {
  if (length == 0) return;
  std::int64_t arg_max = 0;
  for (std::int64_t j = 1; j < length; ++j)
    if (x[j * stride] > x[arg_max * stride]) arg_max = j;
  const double peak = static_cast<double>(x[arg_max * stride]);
  if constexpr (K == Kind::Hardmax) {
    for (std::int64_t j = 0; j < length; ++j) y[j * stride] = T(0);
    y[arg_max * stride] = T(1);
  } else if constexpr (K == Kind::Softmax) {
    // exp(x - peak) kept in double until divided, as the double reference does.
    thread_local std::vector<double> exps;
    exps.resize(static_cast<std::size_t>(length));
    double sum = 0.0;
    for (std::int64_t j = 0; j < length; ++j) {
      exps[static_cast<std::size_t>(j)] = std::exp(static_cast<double>(x[j * stride]) - peak);
      sum += exps[static_cast<std::size_t>(j)];
    }
    for (std::int64_t j = 0; j < length; ++j) y[j * stride] = static_cast<T>(exps[static_cast<std::size_t>(j)] / sum);
  } else {
    double sum = 0.0;
    for (std::int64_t j = 0; j < length; ++j) sum += std::exp(static_cast<double>(x[j * stride]) - peak);
    const double log_sum = std::log(sum);
    for (std::int64_t j = 0; j < length; ++j)
      y[j * stride] = static_cast<T>(static_cast<double>(x[j * stride]) - peak - log_sum);
  }
}

// Softmax of one contiguous float32 line, in float: the maximum, exp(x - peak) into y with its
// sum, then y / sum, each a vectorised pass. A NaN anywhere makes the sum and so the whole line
// NaN, as in the double path.
ASC_VECTOR_CLONES void softmax_contiguous_line(const float* x, float* y, std::int64_t length) {
  // The order of a maximum does not change it (a NaN is skipped by every order of the compare,
  // and then makes the sum NaN below), so it may run in vector lanes.
  float peak = x[0];
#pragma omp simd reduction(max : peak)
  for (std::int64_t j = 1; j < length; ++j) peak = x[j] > peak ? x[j] : peak;
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (std::int64_t j = 0; j < length; ++j) {
    y[j] = vector_exp(x[j] - peak);
    sum += y[j];
  }
#pragma omp simd
  for (std::int64_t j = 0; j < length; ++j) y[j] /= sum;
}

// Every line, shared between the threads in blocks of lines. A non-null `block_done` is called on
// each block's elements once they are final, where a block is one range of memory (lines along
// the last axis).
template <Kind K, class T>
void apply(const T* x, T* y, const Lines& lines, int threads,
           const std::function<void(std::int64_t, std::int64_t)>* block_done = nullptr) {
  const std::int64_t count = lines.outer * lines.inner;
  constexpr std::int64_t kElementsPerBlock = 16384;
  const std::int64_t per_block = std::max<std::int64_t>(1, kElementsPerBlock / std::max<std::int64_t>(lines.length, 1));
  parallel_for(threads, (count + per_block - 1) / per_block, [&](std::int64_t block) {
    const std::int64_t end = std::min(count, (block + 1) * per_block);
    for (std::int64_t line = block * per_block; line < end; ++line) {
      const std::int64_t o = line / lines.inner;
      const std::int64_t i = line % lines.inner;
      const std::int64_t base = o * lines.length * lines.inner + i;
      if constexpr (K == Kind::Softmax && std::is_same_v<T, float>) {
        if (lines.inner == 1 && lines.length > 0) {
          softmax_contiguous_line(x + base, y + base, lines.length);
          continue;
        }
      }
      apply_line<K>(x + base, y + base, lines.length, lines.inner);
    }
    if (block_done != nullptr && lines.inner == 1)
      (*block_done)(block * per_block * lines.length, end * lines.length);
  });
}

void softmax_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  if (x.shape) normalize_axis(context.attrs().get_int("axis", context.opset < 13 ? 1 : -1),
                              static_cast<std::int64_t>(x.shape->size()), context.node);
  context.outputs[0].dtype = x.dtype;
  context.outputs[0].shape = x.shape;
}

template <Kind K>
void softmax_compute(KernelContext& context) {
  const Tensor& x = context.input(0);
  if (!is_floating(x.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported, context.node.describe() + ": " + context.node.op_type +
                                                         " does not support " + std::string(dtype_name(x.dtype())));
  const Lines lines = lines_of(x.shape(), context.opset, context.node);
  if (x.dtype() == DType::Float32 || x.dtype() == DType::Float64) {
    const Tensor input = x.contiguous();
    Tensor y = uninitialized_tensor(x.dtype(), x.shape());  // every line writes all its elements
    // The output epilogue (the NPU simulator's rounding) on each block while it is in cache.
    const bool blocks_in_memory_order = x.dtype() == DType::Float32 && lines.inner == 1 && context.output_epilogue;
    const std::function<void(std::int64_t, std::int64_t)> block_done = [&](std::int64_t begin, std::int64_t end) {
      context.output_epilogue(y, begin, end);
    };
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        apply<K>(input.data<T>(), y.data<T>(), lines, context.threads, blocks_in_memory_order ? &block_done : nullptr);
    });
    context.outputs[0] = y;
    context.output_epilogue_done = blocks_in_memory_order;
    return;
  }
  // 16-bit floats: through double, rounded once to the output dtype.
  const std::vector<double> values = x.to_doubles();
  std::vector<double> result(values.size(), 0.0);
  apply<K>(values.data(), result.data(), lines, context.threads);
  context.outputs[0] = Tensor::from_vector(x.shape(), result).cast(x.dtype());
}

// Max, subtract, exp, sum and divide per element.
CostFacts log_softmax_cost(const CostContext& context) { return per_input_element_cost(context, 5.0); }

// Softmax on an NPU computing at fp16 (a target with 2-byte elements): CANN's SoftmaxV2 kernel
// takes the maximum and the subtraction at fp16, then casts to fp32 wherever the vector unit has
// an fp32 exp (every Ascend SoC modelled), runs exp, sum and divide there and casts the result
// back. An fp32 instruction covers half the elements of an fp16 one (one 256-byte repeat), so the
// five fp32 steps (cast, exp, sum, divide, cast) count twice in the vector work, which is what the
// backend times the task by: 2 + 2 x 5 = 12 fp16 instructions per element instead of 5.
CostFacts softmax_cost(const CostContext& context) {
  constexpr double kFp16Steps = 2, kFp32Steps = 5;
  const bool fp16_device = context.target != nullptr && context.target->element_bytes == 2;
  return per_input_element_cost(context, fp16_device ? kFp16Steps + 2 * kFp32Steps : 5.0);
}
// Max and a compare-and-write per element.
CostFacts hardmax_cost(const CostContext& context) { return per_input_element_cost(context, 2.0); }

}  // namespace

ASC_REGISTER_OP("", "Softmax", 11, 17, softmax_infer, softmax_compute<Kind::Softmax>, softmax_cost);
ASC_REGISTER_OP("", "LogSoftmax", 11, 17, softmax_infer, softmax_compute<Kind::LogSoftmax>, log_softmax_cost);
ASC_REGISTER_OP("", "Hardmax", 11, 17, softmax_infer, softmax_compute<Kind::Hardmax>, hardmax_cost);

}  // namespace asc::ops
