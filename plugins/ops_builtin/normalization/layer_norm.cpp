// LayerNormalization (opset 17): normalises over the axes from `axis` on,
// y = (x - mean) * inv_std_dev * Scale + B, with the optional Mean and InvStdDev outputs
// (shape of X with the normalised axes set to 1, dtype stash_type).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>
#include <asc/sdk/vector_math.hpp>

#include "common/nn_compute_dtype.hpp"
#include "common/shape_utils.hpp"
#include "common/uninitialized_tensor.hpp"
#include "normalization/norm_common.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void layer_norm_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

// First normalised axis; ONNX allows [-rank, rank].
std::int64_t first_axis(const Node& node, std::int64_t rank) {
  const std::int64_t axis = node.attributes.get_int("axis", -1);
  const std::int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized > rank)
    layer_norm_fail(node, "attribute 'axis' " + std::to_string(axis) + " is out of range for rank " +
                              std::to_string(rank));
  return normalized;
}

// stash_type is an ONNX TensorProto element type: FLOAT (1) or BFLOAT16 (16).
DType stash_dtype(const Node& node) {
  const std::int64_t stash_type = node.attributes.get_int("stash_type", 1);
  if (stash_type == 1) return DType::Float32;
  if (stash_type == 16) return DType::BFloat16;
  layer_norm_fail(node, "attribute 'stash_type' is " + std::to_string(stash_type) +
                            ", expected 1 (float) or 16 (bfloat16)");
}

void layer_norm_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  context.outputs[0].dtype = x.dtype;
  context.outputs[0].shape = x.shape;
  const DType stash = stash_dtype(context.node);
  std::optional<std::vector<Dim>> statistics_shape;
  if (x.shape) {
    const std::int64_t axis = first_axis(context.node, static_cast<std::int64_t>(x.shape->size()));
    statistics_shape = *x.shape;
    for (std::size_t d = static_cast<std::size_t>(axis); d < statistics_shape->size(); ++d)
      (*statistics_shape)[d] = Dim(1);
  }
  for (std::size_t i = 1; i < context.outputs.size(); ++i) {
    context.outputs[i].dtype = stash;
    context.outputs[i].shape = statistics_shape;
  }
}

// Scale or B as one value per normalised element: either exactly that many values, or a shape
// that broadcasts to the normalised axes.
std::vector<double> expand_parameter(const Node& node, const Tensor& parameter, const Shape& normalized,
                                     const char* name) {
  const std::int64_t count = num_elements(normalized);
  std::vector<double> values = parameter.to_doubles();
  if (static_cast<std::int64_t>(values.size()) == count) return values;
  const Shape& shape = parameter.shape();
  bool broadcastable = shape.size() <= normalized.size();
  for (std::size_t i = 0; broadcastable && i < shape.size(); ++i) {
    const std::int64_t target = normalized[normalized.size() - shape.size() + i];
    broadcastable = shape[i] == 1 || shape[i] == target;
  }
  if (!broadcastable)
    layer_norm_fail(node, std::string(name) + " has shape " + shape_to_string(shape) +
                              ", which does not fit the normalised " + "shape " +
                              shape_to_string(normalized));
  std::vector<double> expanded;
  expanded.reserve(static_cast<std::size_t>(count));
  for_each_index(normalized, {broadcast_strides(shape, normalized)},
                 [&](const std::vector<std::int64_t>& offsets) { expanded.push_back(values[offsets[0]]); });
  return expanded;
}

// One row, in double: the mean, the variance about it, then the normalised, scaled and shifted
// values. The sums vectorise in `omp simd` lanes (the same double sums in another order).
template <class T>
[[gnu::always_inline]] inline void normalize_row(const T* in, T* out, std::int64_t columns, const double* scale,
                                                 const double* bias, double epsilon, double& mean,
                                                 double& inv_std_dev) {
  double sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (std::int64_t i = 0; i < columns; ++i) sum += static_cast<double>(in[i]);
  mean = sum / static_cast<double>(columns);
  const double centre = mean;
  double squares = 0.0;
#pragma omp simd reduction(+ : squares)
  for (std::int64_t i = 0; i < columns; ++i) {
    const double d = static_cast<double>(in[i]) - centre;
    squares += d * d;
  }
  inv_std_dev = 1.0 / std::sqrt(squares / static_cast<double>(columns) + epsilon);
  const double factor = inv_std_dev;
#pragma omp simd
  for (std::int64_t i = 0; i < columns; ++i) {
    const double normalized = (static_cast<double>(in[i]) - centre) * factor * scale[i];
    out[i] = static_cast<T>(bias == nullptr ? normalized : normalized + bias[i]);
  }
}

// The float32 row compiled for AVX-512, AVX2 and the baseline (asc/sdk/vector_math.hpp).
ASC_VECTOR_CLONES void normalize_row_f32(const float* in, float* out, std::int64_t columns, const double* scale,
                                         const double* bias, double epsilon, double& mean, double& inv_std_dev) {
  normalize_row(in, out, columns, scale, bias, epsilon, mean, inv_std_dev);
}

template <class T>
void layer_normalize(const T* x, T* y, std::int64_t rows, std::int64_t columns,
                     const std::vector<double>& scale, const std::vector<double>* bias, double epsilon,
                     std::vector<double>& means, std::vector<double>& inv_std_devs, int threads) {
  // Rows are independent: blocks of rows per thread.
  const std::int64_t per_block = std::max<std::int64_t>(1, 16384 / columns);
  const double* bias_values = bias == nullptr ? nullptr : bias->data();
  parallel_for(threads, (rows + per_block - 1) / per_block, [&](std::int64_t block) {
    for (std::int64_t r = block * per_block; r < std::min(rows, (block + 1) * per_block); ++r) {
      double& mean = means[static_cast<std::size_t>(r)];
      double& inv_std_dev = inv_std_devs[static_cast<std::size_t>(r)];
      if constexpr (std::is_same_v<T, float>)
        normalize_row_f32(x + r * columns, y + r * columns, columns, scale.data(), bias_values, epsilon, mean,
                          inv_std_dev);
      else
        normalize_row(x + r * columns, y + r * columns, columns, scale.data(), bias_values, epsilon, mean,
                      inv_std_dev);
    }
  });
}

void layer_norm_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const DType stash = stash_dtype(node);
  const Shape& shape = x_in.shape();
  const std::int64_t axis = first_axis(node, x_in.rank());
  const Shape normalized(shape.begin() + axis, shape.end());
  const Shape statistics_shape = [&] {
    Shape s = shape;
    for (std::size_t d = static_cast<std::size_t>(axis); d < s.size(); ++d) s[d] = 1;
    return s;
  }();
  const std::int64_t columns = num_elements(normalized);
  const std::int64_t rows = num_elements(statistics_shape);
  const std::vector<double> scale = expand_parameter(node, context.input(1), normalized, "Scale");
  std::vector<double> bias;
  if (context.has_input(2)) bias = expand_parameter(node, context.input(2), normalized, "B");
  const double epsilon = node.attributes.get_float("epsilon", 1e-5f);
  const Tensor x = to_nn_compute_dtype(x_in);
  Tensor y = uninitialized_tensor(compute_dtype, shape);  // every row writes all its elements
  std::vector<double> means(static_cast<std::size_t>(rows)), inv_std_devs(static_cast<std::size_t>(rows));
  if (columns > 0)
    visit_dtype(compute_dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        layer_normalize(x.data<T>(), y.data<T>(), rows, columns, scale,
                        context.has_input(2) ? &bias : nullptr, epsilon, means, inv_std_devs, context.threads);
      else
        throw Error(ErrorCode::OperatorDtypeUnsupported,
                    node.describe() +
                        ": LayerNormalization supports float16, bfloat16, float32 and float64, not " +
                        std::string(dtype_name(dtype)));
    });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
  if (context.outputs.size() > 1 && !node.outputs[1].empty())
    context.outputs[1] = Tensor::from_vector<double>(statistics_shape, means).cast(stash);
  if (context.outputs.size() > 2 && !node.outputs[2].empty())
    context.outputs[2] = Tensor::from_vector<double>(statistics_shape, inv_std_devs).cast(stash);
}

// Mean, variance, normalise, scale and shift: about six operations per element on a host or an
// fp32 device. On an NPU computing at fp16 (a target with 2-byte elements), CANN's TBE layer_norm
// casts x, gamma and beta to fp32 wherever the vector unit has an fp32 exp (every Ascend SoC
// modelled; its default high_performance mode) and runs its DSL steps there, over the whole tensor:
// cast, scale by 1/n, sum, subtract the mean, square, scale by 1/n, sum (the variance), subtract
// the mean, add epsilon, log, scale by -0.5, exp (the reciprocal square root), multiply, multiply
// by gamma, add beta, cast back: 16 fp32 steps, each instruction covering half the elements of an
// fp16 one (one 256-byte repeat), so 32 fp16 instructions per element (the mean and variance
// broadcasts not counted).
CostFacts layer_norm_cost(const CostContext& context) {
  constexpr double kFp32Steps = 16;
  const bool fp16_device = context.target != nullptr && context.target->element_bytes == 2;
  return normalization_cost(context, fp16_device ? 2 * kFp32Steps : 6.0);
}

}  // namespace

ASC_REGISTER_OP("", "LayerNormalization", 17, 17, layer_norm_infer, layer_norm_compute, layer_norm_cost);

}  // namespace asc::ops
