// DequantizeLinear: y = (x - zero_point) * scale in float32 for int8, uint8 or int32 x (int32
// has no zero point). Per-axis scales from opset 13.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "quantization/quantization_axis.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_dequantize_linear(InferenceContext& context) {
  set_output(context, 0, context.input(1).dtype, input_dims(context, 0));
}

void compute_dequantize_linear(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x = context.input(0);
  if (x.dtype() != DType::Int8 && x.dtype() != DType::UInt8 && x.dtype() != DType::Int32)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": input type " + std::string(dtype_name(x.dtype())) + " (need int8, uint8 or int32)");
  if (context.has_input(2) && context.input(2).dtype() != x.dtype())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": zero point type differs from the input's");
  const QuantizationAxis axis = quantization_axis(context);
  const std::vector<double> scales = context.input(1).to_doubles();
  const std::vector<double> zero_points =
      context.has_input(2) ? context.input(2).to_doubles() : std::vector<double>(scales.size(), 0.0);
  const std::vector<double> values = x.to_doubles();
  Tensor y(DType::Float32, x.shape());
  float* out = y.data<float>();
  for (std::size_t n = 0; n < values.size(); ++n) {
    const auto p = static_cast<std::size_t>(axis.parameter(static_cast<std::int64_t>(n)));
    out[n] = static_cast<float>(values[n] - zero_points[p]) * static_cast<float>(scales[p]);
  }
  const DType scale_dtype = context.input(1).dtype();
  context.outputs[0] = scale_dtype == DType::Float32 ? std::move(y) : y.cast(scale_dtype);
}

CostFacts dequantize_cost(const CostContext& context) { return elementwise_cost(context, 2); }

}  // namespace

ASC_REGISTER_OP("", "DequantizeLinear", 11, 17, infer_dequantize_linear, compute_dequantize_linear, dequantize_cost);

}  // namespace asc::ops
