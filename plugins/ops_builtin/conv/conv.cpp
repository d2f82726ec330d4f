// Conv (opset 11-17): N-D grouped, dilated, strided convolution with optional bias.
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "common/uninitialized_tensor.hpp"
#include "conv/conv_common.hpp"

namespace asc::ops {
namespace {

void conv_infer(InferenceContext& context) {
  infer_conv_output(context, context.input(0).dtype);
}

void conv_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  if (compute_dtype != DType::Float32 && compute_dtype != DType::Float64)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": Conv supports float16, bfloat16, float32 and float64, not " +
                    std::string(dtype_name(dtype)));
  if (context.input(1).dtype() != dtype || (context.has_input(2) && context.input(2).dtype() != dtype))
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": X, W and B must have the same dtype");
  const Tensor x = to_nn_compute_dtype(x_in);
  const Tensor w = to_nn_compute_dtype(context.input(1));
  const ConvGeometry geometry = conv_geometry(node, x.shape(), w.shape());
  Tensor bias;
  if (context.has_input(2)) {
    bias = to_nn_compute_dtype(context.input(2));
    if (bias.shape() != Shape{geometry.out_channels})
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": B has shape " +
                                                  shape_to_string(bias.shape()) + ", expected [" +
                                                  std::to_string(geometry.out_channels) + "]");
  }
  const Shape y_shape = conv_output_shape(geometry, x.shape().size() - 2);
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

ASC_REGISTER_OP("", "Conv", 11, 17, conv_infer, conv_compute, conv_cost);

}  // namespace asc::ops
