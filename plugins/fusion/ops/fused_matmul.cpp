// asc.FusedMatMul(A, B, Bias?) -> Y = activation(MatMul(A, B) + Bias)
// MatMul's numpy semantics; Bias broadcasts onto the product without changing its shape (a
// per-column vector, as Gemm's C). "activation"/"activation_params" as in activation_epilogue.hpp.
// Made by MatMulBiasAddFusion and MatMulActivationFusion: one Cube kernel with its epilogue.
#include <climits>

#include <asc/sdk/op_registry.hpp>

#include <asc/sdk/op_cost.hpp>
#include "ops/activation_epilogue.hpp"
#include "ops/inner_ops.hpp"
#include "ops/input_prefix.hpp"

namespace asc::fusion {
namespace {

constexpr std::size_t kBias = 2;

void fused_matmul_infer(InferenceContext& context) {
  check_activation(context.node);
  const ValueInfo y =
      infer_inner(context.node, "MatMul", input_prefix(context.inputs, 2), input_prefix(context.input_values, 2));
  context.outputs[0].dtype = y.dtype;
  context.outputs[0].shape = y.shape;
}

void fused_matmul_compute(KernelContext& context) {
  Tensor y = run_inner(context.node, "MatMul", input_prefix(context.inputs, 2), context.threads);
  if (context.has_input(kBias)) y = run_inner(context.node, "Add", {&y, context.inputs[kBias]}, context.threads);
  context.outputs[0] = apply_activation(context.node, std::move(y), context.threads);
}

CostFacts fused_matmul_cost(const CostContext& context) {
  CostFacts facts = cost_inner(context, "MatMul", input_prefix(context.inputs, 2));
  const auto elements = static_cast<double>(value_elements(context.outputs[0]));
  if (const ValueInfo* bias = input_at(context.inputs, kBias)) {
    facts.flops += elements;
    facts.bytes_read += value_bytes(bias);
  }
  facts.flops += activation_flops_per_element(context.node) * elements;
  facts.unit = ComputeUnit::Cube;
  return facts;
}

}  // namespace

ASC_REGISTER_OP("asc", "FusedMatMul", 1, INT_MAX, fused_matmul_infer, fused_matmul_compute,
                fused_matmul_cost);

}  // namespace asc::fusion
