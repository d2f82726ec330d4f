// asc.FusedGemm(A, B, C?) -> Y = activation(Gemm(A, B, C))
// Gemm's attributes (alpha, beta, transA, transB) plus "activation"/"activation_params"
// (activation_epilogue.hpp). Made by MatMulActivationFusion from Gemm + activation.
#include <climits>

#include <asc/sdk/op_registry.hpp>

#include <asc/sdk/op_cost.hpp>
#include "ops/activation_epilogue.hpp"
#include "ops/inner_ops.hpp"
#include "ops/input_prefix.hpp"

namespace asc::fusion {
namespace {

constexpr std::size_t kGemmInputs = 3;

Attributes gemm_attributes(const Node& fused) {
  Attributes attributes = fused.attributes;
  attributes.erase("activation");
  attributes.erase("activation_params");
  return attributes;
}

void fused_gemm_infer(InferenceContext& context) {
  check_activation(context.node);
  const ValueInfo y = infer_inner(context.node, "Gemm", input_prefix(context.inputs, kGemmInputs),
                                  input_prefix(context.input_values, kGemmInputs), gemm_attributes(context.node));
  context.outputs[0].dtype = y.dtype;
  context.outputs[0].shape = y.shape;
}

void fused_gemm_compute(KernelContext& context) {
  Tensor y = run_inner(context.node, "Gemm", input_prefix(context.inputs, kGemmInputs), context.threads,
                       gemm_attributes(context.node));
  context.outputs[0] = apply_activation(context.node, std::move(y), context.threads);
}

CostFacts fused_gemm_cost(const CostContext& context) {
  CostFacts facts = cost_inner(context, "Gemm", input_prefix(context.inputs, kGemmInputs), gemm_attributes(context.node));
  facts.flops += activation_flops_per_element(context.node) *
                 static_cast<double>(value_elements(context.outputs[0]));
  facts.unit = ComputeUnit::Cube;
  return facts;
}

}  // namespace

ASC_REGISTER_OP("asc", "FusedGemm", 1, INT_MAX, fused_gemm_infer, fused_gemm_compute, fused_gemm_cost);

}  // namespace asc::fusion
