// asc.FusedConv(X, W, B?, Z?) -> Y = activation(Conv(X, W, B) + Z)
// Conv's attributes plus "activation"/"activation_params" (activation_epilogue.hpp). Z, the
// residual, has Y's shape. Made by ConvResidualAddFusion and ConvActivationFusion; on the NPU it
// is one Cube kernel whose epilogue runs on the tile before it leaves the buffer.
#include <climits>

#include <asc/sdk/op_registry.hpp>

#include "common/cost_utils.hpp"
#include "ops/activation_epilogue.hpp"
#include "ops/inner_ops.hpp"
#include "ops/input_prefix.hpp"

namespace asc::fusion {
namespace {

constexpr std::size_t kConvInputs = 3;
constexpr std::size_t kResidual = 3;

Attributes conv_attributes(const Node& fused) {
  Attributes attributes = fused.attributes;
  attributes.erase("activation");
  attributes.erase("activation_params");
  return attributes;
}

void infer(InferenceContext& context) {
  check_activation(context.node);
  const ValueInfo y = infer_inner(context.node, "Conv", input_prefix(context.inputs, kConvInputs),
                                  input_prefix(context.input_values, kConvInputs), conv_attributes(context.node));
  context.outputs[0].dtype = y.dtype;
  context.outputs[0].shape = y.shape;
}

void compute(KernelContext& context) {
  Tensor y = run_inner(context.node, "Conv", input_prefix(context.inputs, kConvInputs), context.threads,
                       conv_attributes(context.node));
  if (context.has_input(kResidual)) y = run_inner(context.node, "Add", {&y, context.inputs[kResidual]}, context.threads);
  context.outputs[0] = apply_activation(context.node, std::move(y), context.threads);
}

CostFacts cost(const CostContext& context) {
  CostFacts facts = cost_inner(context.node, "Conv", input_prefix(context.inputs, kConvInputs), *context.outputs[0],
                               conv_attributes(context.node));
  const auto elements = static_cast<double>(ops::value_elements(context.outputs[0]));
  if (const ValueInfo* residual = input_at(context.inputs, kResidual)) {
    facts.flops += elements;
    facts.bytes_read += ops::value_bytes(residual);
  }
  facts.flops += activation_flops_per_element(context.node) * elements;
  facts.unit = ComputeUnit::Cube;
  return facts;
}

}  // namespace

ASC_REGISTER_OP("asc", "FusedConv", 1, INT_MAX, infer, compute, cost);

}  // namespace asc::fusion
