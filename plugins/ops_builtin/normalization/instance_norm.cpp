// InstanceNormalization (opset 11-17): y = scale * (x - mean) / sqrt(var + epsilon) + B with mean
// and population variance per (N, C) plane.
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "normalization/norm_common.hpp"

namespace asc::ops {
namespace {

template <class T>
void instance_normalize(const T* x, T* y, std::int64_t batch, std::int64_t channels, std::int64_t plane,
                        const std::vector<double>& scale, const std::vector<double>& bias, double epsilon) {
  for (std::int64_t n = 0; n < batch; ++n)
    for (std::int64_t c = 0; c < channels; ++c) {
      const T* in = x + (n * channels + c) * plane;
      T* out = y + (n * channels + c) * plane;
      double sum = 0.0;
      for (std::int64_t i = 0; i < plane; ++i) sum += static_cast<double>(in[i]);
      const double mean = plane == 0 ? 0.0 : sum / static_cast<double>(plane);
      double squares = 0.0;
      for (std::int64_t i = 0; i < plane; ++i) {
        const double d = static_cast<double>(in[i]) - mean;
        squares += d * d;
      }
      const double variance = plane == 0 ? 0.0 : squares / static_cast<double>(plane);
      const double a = scale[static_cast<std::size_t>(c)] / std::sqrt(variance + epsilon);
      const double b = bias[static_cast<std::size_t>(c)] - mean * a;
      for (std::int64_t i = 0; i < plane; ++i) out[i] = static_cast<T>(static_cast<double>(in[i]) * a + b);
    }
}

void instance_norm_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  if (x_in.rank() < 3)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": X must have rank >= 3 (N, C, spatial...)");
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const std::int64_t batch = x_in.shape()[0];
  const std::int64_t channels = x_in.shape()[1];
  const std::int64_t plane = batch * channels == 0 ? 0 : x_in.numel() / (batch * channels);
  const std::vector<double> scale = channel_values(node, context.input(1), channels, "scale");
  const std::vector<double> bias = channel_values(node, context.input(2), channels, "B");
  const double epsilon = node.attributes.get_float("epsilon", 1e-5f);
  const Tensor x = to_nn_compute_dtype(x_in);
  Tensor y(compute_dtype, x.shape());
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      instance_normalize(x.data<T>(), y.data<T>(), batch, channels, plane, scale, bias, epsilon);
    else
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() +
                      ": InstanceNormalization supports float16, bfloat16, float32 and float64, not " +
                      std::string(dtype_name(dtype)));
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

// Mean, variance and the affine step: about five operations per element.
CostFacts instance_norm_cost(const CostContext& context) {
  return normalization_cost(context, 5.0);
}

}  // namespace

ASC_REGISTER_OP("", "InstanceNormalization", 11, 17, infer_same_as_input, instance_norm_compute,
                instance_norm_cost);

}  // namespace asc::ops
