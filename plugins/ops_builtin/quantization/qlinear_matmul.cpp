// QLinearMatMul (opset 10, registered 11-17): numpy matmul of quantized a and b (int8/uint8):
//   y = saturate(round_half_even((a - a_zp)(b - b_zp) * a_scale * b_scale / y_scale) + y_zp)
// a's scale and zero point are per tensor or per row (numpy-broadcastable to a with a last
// axis of 1, e.g. [M, 1] or [D, M, 1]); b's per tensor or per column ([N], [1, N], [D, 1, N]).
// Sums are exact (int64): ONNX allows but does not require 32-bit wrap-around.
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "linalg/matmul_shape.hpp"
#include "quantization/qlinear_output.hpp"

namespace asc::ops {
namespace {

constexpr std::size_t kA = 0, kAScale = 1, kAZero = 2, kB = 3, kBScale = 4, kBZero = 5,
                      kQlinearMatmulYScale = 6, kQlinearMatmulYZero = 7;

void qlinear_matmul_infer(InferenceContext& context) {
  context.outputs[0].dtype = context.input(kQlinearMatmulYZero).dtype;
  context.outputs[0].shape = infer_matmul_dims(context.input(kA), context.input(kB), context.node);
}

// Parameter `index` of `operand` broadcast to the operand's shape, checked to be constant along
// the summed axis K (`k_axis_from_end` 1 for a's last axis, 2 for b's second to last).
std::vector<double> operand_parameter(const KernelContext& context, std::size_t index, const Tensor& operand,
                                      std::size_t k_axis_from_end, const char* name, bool zero_point) {
  const Node& node = context.node;
  const Tensor& parameter = context.input(index);
  if (zero_point && parameter.dtype() != operand.dtype())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": '" + name + "' must have the dtype of its operand");
  if (!zero_point && !is_floating(parameter.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": '" + name + "' must be float");
  const Shape& shape = parameter.shape();
  const bool varies_along_k = parameter.numel() != 1 &&
                              (operand.shape().size() < 2 ||
                               (shape.size() >= k_axis_from_end && shape[shape.size() - k_axis_from_end] != 1));
  if (varies_along_k || broadcast_shapes(shape, operand.shape(), node) != operand.shape())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": '" + name + "' of shape " + shape_to_string(shape) +
                                                " is neither per tensor nor per " +
                                                (k_axis_from_end == 1 ? "row" : "column") + " of an operand of shape " +
                                                shape_to_string(operand.shape()));
  const std::vector<double> values = parameter.to_doubles();
  std::vector<double> expanded;
  expanded.reserve(static_cast<std::size_t>(operand.numel()));
  for_each_index(operand.shape(), {broadcast_strides(shape, operand.shape())},
                 [&](const std::vector<std::int64_t>& offsets) { expanded.push_back(values[static_cast<std::size_t>(offsets[0])]); });
  return expanded;
}

void qlinear_matmul_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& a = context.input(kA);
  const Tensor& b = context.input(kB);
  require_8bit(node, a, "a");
  require_8bit(node, b, "b");
  const MatMulShape plan = plan_matmul(a.shape(), b.shape(), node);
  const std::vector<double> a_scale = operand_parameter(context, kAScale, a, 1, "a_scale", false);
  const std::vector<double> a_zero = operand_parameter(context, kAZero, a, 1, "a_zero_point", true);
  const std::vector<double> b_scale = operand_parameter(context, kBScale, b, 2, "b_scale", false);
  const std::vector<double> b_zero = operand_parameter(context, kBZero, b, 2, "b_zero_point", true);
  const QuantizedOutput output = quantized_output(context, kQlinearMatmulYScale, kQlinearMatmulYZero);
  const std::vector<std::int64_t> av = a.to_int64s();
  const std::vector<std::int64_t> bv = b.to_int64s();

  const std::int64_t m = plan.m, n = plan.n, k = plan.k;
  std::vector<double> real(static_cast<std::size_t>(num_elements(plan.output)));
  for (std::int64_t i = 0; i < plan.batch(); ++i) {
    const std::int64_t a_base = plan.a_matrix[static_cast<std::size_t>(i)] * m * k;
    const std::int64_t b_base = plan.b_matrix[static_cast<std::size_t>(i)] * k * n;
    for (std::int64_t r = 0; r < m; ++r)
      for (std::int64_t c = 0; c < n; ++c) {
        // Row r's parameters sit at every element of the row, column c's at every element of the column.
        const auto a_row = static_cast<std::size_t>(a_base + r * k);
        const auto b_column = static_cast<std::size_t>(b_base + c);
        const auto a_offset = static_cast<std::int64_t>(a_zero[a_row]);
        const auto b_offset = static_cast<std::int64_t>(b_zero[b_column]);
        std::int64_t sum = 0;
        for (std::int64_t j = 0; j < k; ++j)
          sum += (av[a_row + static_cast<std::size_t>(j)] - a_offset) *
                 (bv[b_column + static_cast<std::size_t>(j * n)] - b_offset);
        real[static_cast<std::size_t>((i * m + r) * n + c)] =
            static_cast<double>(sum) * a_scale[a_row] * b_scale[b_column];
      }
  }
  context.outputs[0] = quantize_output(real, plan.output, output);
}

// Cube: MatMul's MACs; every input (scales and zero points too) read once.
CostFacts qlinear_matmul_cost(const CostContext& context) {
  if (context.inputs.size() <= kB) return {0.0, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
  const CostContext matmul{context.node, {context.inputs[kA], context.inputs[kB]}, context.outputs};
  CostFacts facts = matmul_cost(matmul);
  facts.bytes_read = input_bytes(context);
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "QLinearMatMul", 11, 17, qlinear_matmul_infer, qlinear_matmul_compute,
                qlinear_matmul_cost);

}  // namespace asc::ops
