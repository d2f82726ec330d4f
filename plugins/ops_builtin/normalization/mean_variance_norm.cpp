// MeanVarianceNormalization (opset 11-17): y = (x - mean) / (sqrt(variance) + 1e-9), mean and
// population variance over `axes` (default 0, 2, 3), as ONNX's function body defines it.
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "common/shape_utils.hpp"
#include "normalization/norm_common.hpp"

namespace asc::ops {
namespace {

constexpr double kEpsilon = 1e-9;

// X's shape with the reduced axes set to 1: one statistic per position of it.
Shape statistics_shape(const Node& node, const Shape& shape) {
  const std::vector<std::int64_t> axes = normalize_axes(node.attributes.get_ints("axes", {0, 2, 3}),
                                                        static_cast<std::int64_t>(shape.size()), node);
  Shape reduced = shape;
  for (std::int64_t axis : axes) reduced[static_cast<std::size_t>(axis)] = 1;
  return reduced;
}

void mean_variance_norm_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  if (x.shape)
    normalize_axes(context.attrs().get_ints("axes", {0, 2, 3}), static_cast<std::int64_t>(x.shape->size()),
                   context.node);
  infer_same_as_input(context);
}

template <class T>
void mean_variance_normalize(const T* x, T* y, const Shape& shape, const Shape& reduced) {
  const std::vector<Shape> strides{contiguous_strides(shape), broadcast_strides(reduced, shape)};
  const std::size_t groups = static_cast<std::size_t>(num_elements(reduced));
  const double count = static_cast<double>(num_elements(shape)) / static_cast<double>(groups);
  std::vector<double> mean(groups, 0.0), variance(groups, 0.0);
  for_each_index(shape, strides,
                 [&](const std::vector<std::int64_t>& o) { mean[o[1]] += static_cast<double>(x[o[0]]); });
  for (double& m : mean) m /= count;
  for_each_index(shape, strides, [&](const std::vector<std::int64_t>& o) {
    const double d = static_cast<double>(x[o[0]]) - mean[o[1]];
    variance[o[1]] += d * d;
  });
  std::vector<double> divisor(groups);
  for (std::size_t g = 0; g < groups; ++g) divisor[g] = std::sqrt(variance[g] / count) + kEpsilon;
  for_each_index(shape, strides, [&](const std::vector<std::int64_t>& o) {
    y[o[0]] = static_cast<T>((static_cast<double>(x[o[0]]) - mean[o[1]]) / divisor[o[1]]);
  });
}

void mean_variance_norm_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const Shape reduced = statistics_shape(node, x_in.shape());
  const Tensor x = to_nn_compute_dtype(x_in);
  Tensor y(compute_dtype, x.shape());
  if (x.numel() > 0)
    visit_dtype(compute_dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        mean_variance_normalize(x.data<T>(), y.data<T>(), x.shape(), reduced);
      else
        throw Error(ErrorCode::OperatorDtypeUnsupported,
                    node.describe() +
                        ": MeanVarianceNormalization supports float16, bfloat16, float32 and float64, "
                        "not " +
                        std::string(dtype_name(dtype)));
    });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

// Mean, variance and the normalisation: about five operations per element.
CostFacts mean_variance_norm_cost(const CostContext& context) {
  return normalization_cost(context, 5.0);
}

}  // namespace

ASC_REGISTER_OP("", "MeanVarianceNormalization", 11, 17, mean_variance_norm_infer, mean_variance_norm_compute,
                mean_variance_norm_cost);

}  // namespace asc::ops
