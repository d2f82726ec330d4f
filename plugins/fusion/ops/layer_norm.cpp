// asc.LayerNorm(X, Scale, B?) -> Y: ONNX LayerNormalization-17 (attributes axis, epsilon;
// the Y output only) for graphs importing an older opset, where that operator does not exist.
// Made by LayerNormFusion; runs the registered LayerNormalization-17 definition.
#include <climits>

#include <asc/sdk/op_registry.hpp>

#include "ops/inner_ops.hpp"

namespace asc::fusion {
namespace {

Attributes normalization_attributes(const Node& node) {
  Attributes attributes;
  attributes.set("axis", node.attributes.get_int("axis", -1));
  attributes.set("epsilon", node.attributes.get_float("epsilon", 1e-5f));
  return attributes;
}

void layer_norm_infer(InferenceContext& context) {
  const ValueInfo y = infer_inner(context.node, "LayerNormalization", context.inputs, context.input_values,
                                  normalization_attributes(context.node));
  context.outputs[0].dtype = y.dtype;
  context.outputs[0].shape = y.shape;
}

void layer_norm_compute(KernelContext& context) {
  context.outputs[0] = run_inner(context.node, "LayerNormalization", context.inputs, context.threads,
                                 normalization_attributes(context.node));
}

CostFacts layer_norm_cost(const CostContext& context) {
  return cost_inner(context, "LayerNormalization", context.inputs, normalization_attributes(context.node));
}

}  // namespace

ASC_REGISTER_OP("asc", "LayerNorm", 1, INT_MAX, layer_norm_infer, layer_norm_compute, layer_norm_cost);

}  // namespace asc::fusion
