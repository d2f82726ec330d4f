// Conv (opset 11-17): N-D grouped, dilated, strided convolution with optional bias.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "common/uninitialized_tensor.hpp"
#include "conv/channels_last_conv.hpp"
#include "conv/conv_common.hpp"

namespace asc::ops {
namespace {

void conv_infer(InferenceContext& context) {
  infer_conv_output(context, context.input(0).dtype);
}

// What a Conv step keeps between runs (KernelState): its geometry for the last input and weight
// shapes, read from the attributes once rather than at every run (about 5 us of the one thread's
// time before each of ResNet-50's convolutions), and the channels-last path's primitives.
struct ConvStepState {
  std::mutex mutex;  // a plan may run on two streams at once
  Shape x_shape, w_shape;
  std::optional<ConvGeometry> geometry;
  const std::shared_ptr<ConvPrimitives> primitives = make_conv_primitives();

  ConvGeometry geometry_for(const Node& node, const Shape& x, const Shape& w) {
    std::lock_guard lock(mutex);
    if (!geometry || x != x_shape || w != w_shape) {
      geometry = conv_geometry(node, x, w);
      x_shape = x;
      w_shape = w;
    }
    return *geometry;
  }
};

void conv_compute(KernelContext& context) {
  const Node& node = context.node;
  ConvStepState* kept =
      context.state != nullptr ? &context.state->get<ConvStepState>([] { return std::make_shared<ConvStepState>(); })
                               : nullptr;
  const Tensor& x_in = context.input(0);
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  if (compute_dtype != DType::Float32 && compute_dtype != DType::Float64)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": Conv supports float16, bfloat16, float32 and float64, not " +
                    std::string(dtype_name(dtype)));
  if (context.input(1).dtype() != dtype || (context.has_input(2) && context.input(2).dtype() != dtype))
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": X, W and B must have the same dtype");
  const ConvGeometry geometry = kept != nullptr ? kept->geometry_for(node, x_in.shape(), context.input(1).shape())
                                                : conv_geometry(node, x_in.shape(), context.input(1).shape());
  const std::size_t spatial_rank = x_in.shape().size() - 2;
  Tensor bias;
  if (context.has_input(2)) {
    bias = to_nn_compute_dtype(context.input(2));
    if (bias.shape() != Shape{geometry.out_channels})
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": B has shape " +
                                                  shape_to_string(bias.shape()) + ", expected [" +
                                                  std::to_string(geometry.out_channels) + "]");
  }
  // Channels-last when the readers take it (the activations then stay so between layers) or the
  // input already is: no transposes, and oneDNN's direct convolution instead of im2col + GEMM.
  const bool channels_last_input = x_in.is_channels_last() && !x_in.is_contiguous();
  if ((context.may_output_channels_last(0) || channels_last_input) &&
      channels_last_conv_available(geometry, spatial_rank, dtype)) {
    const OutputEpilogue* epilogue = context.output_epilogue ? &context.output_epilogue : nullptr;
    ConvPrimitives* primitives = kept != nullptr && context.input_is_constant(1) ? kept->primitives.get() : nullptr;
    const OutputEpilogueSteps* steps =
        epilogue != nullptr && context.output_epilogue_steps ? &*context.output_epilogue_steps : nullptr;
    Tensor y = convolve_channels_last(geometry, x_in, context.input(1), bias.defined() ? &bias : nullptr,
                                      context.threads, primitives, epilogue, steps);
    if (y.defined()) {
      context.outputs[0] = std::move(y);
      context.output_epilogue_done = epilogue != nullptr;
      return;
    }
  }
  const Tensor x = to_nn_compute_dtype(x_in).contiguous();
  const Tensor w = to_nn_compute_dtype(context.input(1)).contiguous();
  const Shape y_shape = conv_output_shape(geometry, spatial_rank);
  Tensor y = uninitialized_tensor(compute_dtype, y_shape);  // convolve writes every element
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      convolve<T>(geometry, x.data<T>(), w.data<T>(), bias.defined() ? bias.data<T>() : nullptr, y.data<T>(),
                  context.threads);
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

}  // namespace

ASC_REGISTER_OP_CHANNELS_LAST("", "Conv", 11, 17, conv_infer, conv_compute, conv_cost, kChannelsLastInput0);

}  // namespace asc::ops
