// asc.Gelu(X) -> Y, attribute approximate: "none" (erf form, the default) or "tanh", as ONNX's
// Gelu-20 (beyond the opsets this toolchain imports). Made by GeluFusion; one Vector kernel.
#include <climits>
#include <string>

#include <asc/sdk/error.hpp>
#include <asc/sdk/op_registry.hpp>

#include <asc/sdk/op_cost.hpp>
#include "ops/gelu_math.hpp"

namespace asc::fusion {
namespace {

bool uses_tanh(const Node& node) {
  const std::string approximate = node.attributes.get_string("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    throw Error(ErrorCode::InvalidOperator,
                node.describe() + ": attribute 'approximate' is '" + approximate + "', expected 'none' or 'tanh'");
  return approximate == "tanh";
}

void gelu_infer(InferenceContext& context) {
  uses_tanh(context.node);
  const ValueInfo& x = context.input(0);
  if (x.dtype != DType::Undefined && !is_floating(x.dtype))
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": input is " +
                                                std::string(dtype_name(x.dtype)) + ", GELU needs a floating type");
  context.outputs[0].dtype = x.dtype;
  context.outputs[0].shape = x.shape;
}

void gelu_compute(KernelContext& context) {
  context.outputs[0] = gelu(context.input(0), uses_tanh(context.node), context.node, context.threads);
}

CostFacts gelu_cost(const CostContext& context) {
  return elementwise_cost(context, uses_tanh(context.node) ? 14 : 12);
}

}  // namespace

ASC_REGISTER_OP("asc", "Gelu", 1, INT_MAX, gelu_infer, gelu_compute, gelu_cost);

}  // namespace asc::fusion
