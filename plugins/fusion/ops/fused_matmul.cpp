// asc.FusedMatMul(A, B, Bias?) -> Y = activation(MatMul(A, B) + Bias)
// MatMul's numpy semantics; Bias broadcasts onto the product without changing its shape (a
// per-column vector, as Gemm's C). "activation"/"activation_params" as in activation_epilogue.hpp.
// Made by MatMulBiasAddFusion and MatMulActivationFusion: one Cube kernel with its epilogue.
#include <algorithm>
#include <climits>

#include <asc/sdk/parallel.hpp>

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

// A float32 bias of one value per column ([N], [1, N], ...) added into the rows of y, a float32
// product the kernel owns, on `threads` threads: the same float additions as the Add kernel,
// without the second output tensor Add would allocate and fill. False (nothing done) for any
// other bias, which then goes through Add.
bool add_column_bias_in_place(Tensor& y, const Tensor& bias, int threads) {
  if (y.dtype() != DType::Float32 || bias.dtype() != DType::Float32 || !y.is_contiguous() ||
      !bias.is_contiguous() || y.rank() == 0 || bias.rank() > y.rank())
    return false;
  const std::int64_t columns = y.shape().back();
  if (columns == 0 || bias.numel() != columns || bias.shape().back() != columns) return false;
  const std::int64_t rows = y.numel() / columns;
  const float* b = bias.data<float>();
  float* out = y.data<float>();
  constexpr std::int64_t kElementsPerBlock = 1 << 15;
  const std::int64_t rows_per_block = std::max<std::int64_t>(1, kElementsPerBlock / columns);
  parallel_for(threads, (rows + rows_per_block - 1) / rows_per_block, [&](std::int64_t block) {
    const std::int64_t end = std::min(rows, (block + 1) * rows_per_block);
    for (std::int64_t r = block * rows_per_block; r < end; ++r) {
      float* row = out + r * columns;
      for (std::int64_t j = 0; j < columns; ++j) row[j] += b[j];
    }
  });
  return true;
}

void fused_matmul_compute(KernelContext& context) {
  Tensor y = run_inner(context.node, "MatMul", input_prefix(context.inputs, 2), context.threads);
  if (context.has_input(kBias) && !add_column_bias_in_place(y, context.input(kBias), context.threads))
    y = run_inner(context.node, "Add", {&y, context.inputs[kBias]}, context.threads);
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
