// BatchNormalization (opset 11-17).
//
// Inference: y = scale * (x - mean) / sqrt(var + epsilon) + B per channel (axis 1). From opset
// 14, training_mode = 1 normalises with the batch statistics instead and also returns
// running_mean/running_var = input * momentum + batch * (1 - momentum) (population variance, as
// ONNX's reference does). The opset 9 form's training outputs (mean, var, saved_mean,
// saved_var) are refused with a clear error.
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "normalization/norm_common.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void batch_norm_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

std::size_t requested_outputs(const Node& node) {
  std::size_t count = 0;
  for (std::size_t i = 1; i < node.outputs.size(); ++i)
    if (!node.outputs[i].empty()) count = i + 1;
  return count == 0 ? 1 : count;
}

// True when the node asks for batch statistics; throws for forms this kernel does not compute.
bool batch_norm_training_mode(const Node& node, std::int64_t opset) {
  const bool extra_outputs = requested_outputs(node) > 1;
  if (opset < 14) {
    if (extra_outputs)
      batch_norm_fail(
          node,
          "the training outputs of BatchNormalization before opset 14 (mean, var, saved_mean, saved_var) "
          "are not supported; use opset >= 14 with training_mode=1");
    return false;
  }
  const std::int64_t mode = node.attributes.get_int("training_mode", 0);
  if (mode != 0 && mode != 1) batch_norm_fail(node, "attribute 'training_mode' must be 0 or 1");
  if (mode == 0 && extra_outputs)
    batch_norm_fail(node, "outputs running_mean and running_var require training_mode=1");
  return mode == 1;
}

void batch_norm_infer(InferenceContext& context) {
  batch_norm_training_mode(context.node, context.opset);
  const ValueInfo& x = context.input(0);
  if (x.shape && x.shape->size() < 2)
    batch_norm_fail(context.node, "X must have at least rank 2 (N, C, ...)");
  context.outputs[0].dtype = x.dtype;
  context.outputs[0].shape = x.shape;
  for (std::size_t i = 1; i < context.outputs.size(); ++i) {
    const ValueInfo& statistic =
        context.input(i + 2);  // running_mean from input_mean, running_var from input_var
    context.outputs[i].dtype = statistic.dtype;
    std::vector<Dim> channels(1);
    if (x.shape) channels[0] = (*x.shape)[1];
    context.outputs[i].shape = channels;
  }
}

// Per-channel mean and population variance over N and the spatial axes.
template <class T>
void batch_statistics(const T* x, std::int64_t batch, std::int64_t channels, std::int64_t plane,
                      std::vector<double>& mean, std::vector<double>& variance) {
  mean.assign(static_cast<std::size_t>(channels), 0.0);
  variance.assign(static_cast<std::size_t>(channels), 0.0);
  const double count = static_cast<double>(batch * plane);
  for (std::int64_t c = 0; c < channels; ++c) {
    double sum = 0.0;
    for (std::int64_t n = 0; n < batch; ++n) {
      const T* p = x + (n * channels + c) * plane;
      for (std::int64_t i = 0; i < plane; ++i) sum += static_cast<double>(p[i]);
    }
    const double m = count == 0 ? 0.0 : sum / count;
    double squares = 0.0;
    for (std::int64_t n = 0; n < batch; ++n) {
      const T* p = x + (n * channels + c) * plane;
      for (std::int64_t i = 0; i < plane; ++i) {
        const double d = static_cast<double>(p[i]) - m;
        squares += d * d;
      }
    }
    mean[static_cast<std::size_t>(c)] = m;
    variance[static_cast<std::size_t>(c)] = count == 0 ? 0.0 : squares / count;
  }
}

template <class T>
void normalize(const T* x, T* y, std::int64_t batch, std::int64_t channels, std::int64_t plane,
               const std::vector<double>& multiplier, const std::vector<double>& offset) {
  for (std::int64_t n = 0; n < batch; ++n)
    for (std::int64_t c = 0; c < channels; ++c) {
      const double a = multiplier[static_cast<std::size_t>(c)];
      const double b = offset[static_cast<std::size_t>(c)];
      const T* in = x + (n * channels + c) * plane;
      T* out = y + (n * channels + c) * plane;
      for (std::int64_t i = 0; i < plane; ++i) out[i] = static_cast<T>(static_cast<double>(in[i]) * a + b);
    }
}

Tensor vector_as(const std::vector<double>& values, DType dtype) {
  return Tensor::from_vector<double>({static_cast<std::int64_t>(values.size())}, values).cast(dtype);
}

void batch_norm_compute(KernelContext& context) {
  const Node& node = context.node;
  const bool training = batch_norm_training_mode(node, context.opset);
  const Tensor& x_in = context.input(0);
  if (x_in.rank() < 2) batch_norm_fail(node, "X must have at least rank 2 (N, C, ...)");
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  if (compute_dtype != DType::Float32 && compute_dtype != DType::Float64)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() +
                    ": BatchNormalization supports float16, bfloat16, float32 and float64, not " +
                    std::string(dtype_name(dtype)));
  const std::int64_t batch = x_in.shape()[0];
  const std::int64_t channels = x_in.shape()[1];
  const std::int64_t plane = batch * channels == 0 ? 0 : x_in.numel() / (batch * channels);
  const std::vector<double> scale = channel_values(node, context.input(1), channels, "scale");
  const std::vector<double> bias = channel_values(node, context.input(2), channels, "B");
  std::vector<double> mean = channel_values(node, context.input(3), channels, "input_mean");
  std::vector<double> variance = channel_values(node, context.input(4), channels, "input_var");
  const double epsilon = node.attributes.get_float("epsilon", 1e-5f);
  const Tensor x = to_nn_compute_dtype(x_in);

  std::vector<double> running_mean, running_var;
  if (training) {
    std::vector<double> batch_mean, batch_var;
    visit_dtype(compute_dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        batch_statistics(x.data<T>(), batch, channels, plane, batch_mean, batch_var);
    });
    const double momentum = node.attributes.get_float("momentum", 0.9f);
    for (std::size_t c = 0; c < mean.size(); ++c) {
      running_mean.push_back(mean[c] * momentum + batch_mean[c] * (1.0 - momentum));
      running_var.push_back(variance[c] * momentum + batch_var[c] * (1.0 - momentum));
    }
    mean = std::move(batch_mean);
    variance = std::move(batch_var);
  }
  std::vector<double> multiplier(mean.size()), offset(mean.size());
  for (std::size_t c = 0; c < mean.size(); ++c) {
    multiplier[c] = scale[c] / std::sqrt(variance[c] + epsilon);
    offset[c] = bias[c] - mean[c] * multiplier[c];
  }
  Tensor y(compute_dtype, x.shape());
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      normalize(x.data<T>(), y.data<T>(), batch, channels, plane, multiplier, offset);
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
  if (training) {
    if (context.outputs.size() > 1 && !node.outputs[1].empty())
      context.outputs[1] = vector_as(running_mean, context.input(3).dtype());
    if (context.outputs.size() > 2 && !node.outputs[2].empty())
      context.outputs[2] = vector_as(running_var, context.input(4).dtype());
  }
}

CostFacts batch_norm_cost(const CostContext& context) {
  return normalization_cost(context, 2.0);
}

}  // namespace

ASC_REGISTER_OP("", "BatchNormalization", 11, 17, batch_norm_infer, batch_norm_compute, batch_norm_cost);

}  // namespace asc::ops
