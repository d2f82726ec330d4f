// MatMulInteger: (A - a_zero_point) x (B - b_zero_point) on 8-bit integers, int32 result, with
// numpy matmul shape rules. Zero points are per tensor (one element) or per row of A / per
// column of B (1-D).
#include <string>

#include <asc/sdk/error.hpp>

#include "linalg/matmul_shape.hpp"

namespace asc::ops {
namespace {

// One zero point per index along the row (A) or column (B) dimension.
std::vector<std::int32_t> matmul_integer_zero_points(const KernelContext& context, std::size_t input,
                                                     std::int64_t count, const char* what) {
  if (!context.has_input(input)) return std::vector<std::int32_t>(static_cast<std::size_t>(count), 0);
  const Tensor& zp = context.input(input);
  if (zp.dtype() != context.input(input - 2).dtype())
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": " + what + " must have the dtype of its operand");
  const std::vector<std::int64_t> values = zp.to_int64s();
  if (values.size() == 1) return std::vector<std::int32_t>(static_cast<std::size_t>(count), static_cast<std::int32_t>(values[0]));
  if (zp.rank() == 1 && zp.numel() == count) return {values.begin(), values.end()};
  throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": " + what + " of shape " +
                                              shape_to_string(zp.shape()) + " is neither a scalar nor 1-D of " +
                                              std::to_string(count) + " elements");
}

void matmul_integer_infer(InferenceContext& context) {
  context.outputs[0].dtype = DType::Int32;
  context.outputs[0].shape = infer_matmul_dims(context.input(0), context.input(1), context.node);
}

void matmul_integer_compute(KernelContext& context) {
  const Tensor& a = context.input(0);
  const Tensor& b = context.input(1);
  for (const Tensor* operand : {&a, &b})
    if (operand->dtype() != DType::UInt8 && operand->dtype() != DType::Int8)
      throw Error(ErrorCode::OperatorDtypeUnsupported, context.node.describe() + ": MatMulInteger does not support " +
                                                           std::string(dtype_name(operand->dtype())));
  const MatMulShape plan = plan_matmul(a.shape(), b.shape(), context.node);
  const std::vector<std::int32_t> a_zero = matmul_integer_zero_points(context, 2, plan.m, "a_zero_point");
  const std::vector<std::int32_t> b_zero = matmul_integer_zero_points(context, 3, plan.n, "b_zero_point");
  const std::vector<std::int64_t> av = a.to_int64s();
  const std::vector<std::int64_t> bv = b.to_int64s();
  Tensor y(DType::Int32, plan.output);
  std::int32_t* out = y.data<std::int32_t>();
  for (std::int64_t i = 0; i < plan.batch(); ++i) {
    const std::int64_t* am = av.data() + plan.a_matrix[i] * plan.m * plan.k;
    const std::int64_t* bm = bv.data() + plan.b_matrix[i] * plan.k * plan.n;
    for (std::int64_t r = 0; r < plan.m; ++r)
      for (std::int64_t c = 0; c < plan.n; ++c) {
        // Products of 8-bit differences fit easily; only the sum may wrap, and only in 32 bits.
        std::uint32_t sum = 0;
        for (std::int64_t j = 0; j < plan.k; ++j)
          sum += static_cast<std::uint32_t>((am[r * plan.k + j] - a_zero[r]) * (bm[j * plan.n + c] - b_zero[c]));
        out[(i * plan.m + r) * plan.n + c] = static_cast<std::int32_t>(sum);
      }
  }
  context.outputs[0] = y;
}

}  // namespace

ASC_REGISTER_OP("", "MatMulInteger", 11, 17, matmul_integer_infer, matmul_integer_compute, matmul_cost);

}  // namespace asc::ops
