// MatMul (numpy semantics): float/double through the shared GEMM, 16-bit floats computed in
// float32, integers with wrapping (modular) accumulation.
#include <functional>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>

#include "common/gemm.hpp"
#include "common/uninitialized_tensor.hpp"
#include "linalg/matmul_shape.hpp"

namespace asc::ops {
namespace {

// Batches share the threads: whole matrices per thread when there are enough of them, else
// each product split (parallel_gemm). A non-null `done` is called on each output matrix's
// elements as soon as it is final (the output epilogue, while the matrix is in cache); returns
// whether it was, which it is not for a single product (its threads share the matrix).
template <class T>
bool matmul_gemm(const T* a, const T* b, T* c, const MatMulShape& plan, int threads,
                 const std::function<void(std::int64_t, std::int64_t)>* done) {
  const std::int64_t a_size = plan.m * plan.k;
  const std::int64_t b_size = plan.k * plan.n;
  const std::int64_t c_size = plan.m * plan.n;
  // A single B shared by every batch of a contiguous A: one tall GEMM instead of many small ones.
  bool one_b = plan.batch() > 0;
  for (std::int64_t i = 0; i < plan.batch() && one_b; ++i) one_b = plan.b_matrix[i] == 0 && plan.a_matrix[i] == i;
  if (one_b) {
    parallel_gemm(threads, false, false, plan.m * plan.batch(), plan.n, plan.k, T(1), a, plan.k, b, plan.n, T(0), c,
                  plan.n);
    return false;
  }
  auto product = [&](std::int64_t i, int product_threads) {
    parallel_gemm(product_threads, false, false, plan.m, plan.n, plan.k, T(1), a + plan.a_matrix[i] * a_size, plan.k,
                  b + plan.b_matrix[i] * b_size, plan.n, T(0), c + i * c_size, plan.n);
  };
  if (threads > 1 && plan.batch() >= 2 * threads) {
    parallel_for(threads, plan.batch(), [&](std::int64_t i) {
      product(i, 1);
      if (done != nullptr) (*done)(i * c_size, (i + 1) * c_size);
    });
    return done != nullptr;
  }
  for (std::int64_t i = 0; i < plan.batch(); ++i) product(i, threads);
  return false;
}

// Unsigned accumulation wraps like the hardware's fixed-width integers (and avoids signed
// overflow UB); the cast back keeps the low bits.
template <class T>
void matmul_integer_loops(const T* a, const T* b, T* c, const MatMulShape& plan) {
  for (std::int64_t i = 0; i < plan.batch(); ++i) {
    const T* am = a + plan.a_matrix[i] * plan.m * plan.k;
    const T* bm = b + plan.b_matrix[i] * plan.k * plan.n;
    T* cm = c + i * plan.m * plan.n;
    for (std::int64_t r = 0; r < plan.m; ++r)
      for (std::int64_t col = 0; col < plan.n; ++col) {
        std::uint64_t sum = 0;
        for (std::int64_t j = 0; j < plan.k; ++j)
          sum += static_cast<std::uint64_t>(am[r * plan.k + j]) * static_cast<std::uint64_t>(bm[j * plan.n + col]);
        cm[r * plan.n + col] = static_cast<T>(sum);
      }
  }
}

// The product; a non-null `epilogue` (KernelContext::output_epilogue) is offered the float32
// output's matrices, and `epilogue_done` says whether it ran.
Tensor multiply(const Tensor& a, const Tensor& b, const MatMulShape& plan, const Node& node, int threads,
                const OutputEpilogue* epilogue, bool& epilogue_done) {
  const bool floating = a.dtype() == DType::Float32 || a.dtype() == DType::Float64;
  // The GEMM writes every element (beta 0); the integer loops too.
  Tensor out = floating ? uninitialized_tensor(a.dtype(), plan.output) : Tensor(a.dtype(), plan.output);
  const std::function<void(std::int64_t, std::int64_t)> matrix_done = [&](std::int64_t begin, std::int64_t end) {
    (*epilogue)(out, begin, end);
  };
  switch (a.dtype()) {
    case DType::Float32:
      epilogue_done = matmul_gemm(a.data<float>(), b.data<float>(), out.data<float>(), plan, threads,
                                  epilogue != nullptr ? &matrix_done : nullptr);
      break;
    case DType::Float64:
      matmul_gemm(a.data<double>(), b.data<double>(), out.data<double>(), plan, threads, nullptr);
      break;
    case DType::Float16:
    case DType::BFloat16:
      return multiply(a.cast(DType::Float32), b.cast(DType::Float32), plan, node, threads, nullptr, epilogue_done)
          .cast(a.dtype());
    case DType::Int32:
    case DType::Int64:
    case DType::UInt32:
    case DType::UInt64:
      visit_dtype(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) matmul_integer_loops(a.data<T>(), b.data<T>(), out.data<T>(), plan);
      });
      break;
    default:
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() + ": MatMul does not support " + std::string(dtype_name(a.dtype())));
  }
  return out;
}

void matmul_infer(InferenceContext& context) {
  const ValueInfo& a = context.input(0);
  context.outputs[0].dtype = a.dtype;
  context.outputs[0].shape = infer_matmul_dims(a, context.input(1), context.node);
}

void matmul_compute(KernelContext& context) {
  const Tensor& a = context.input(0);
  const Tensor& b = context.input(1);
  if (a.dtype() != b.dtype())
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": operands have different dtypes " +
                                                std::string(dtype_name(a.dtype())) + " and " +
                                                std::string(dtype_name(b.dtype())));
  const OutputEpilogue* epilogue = context.output_epilogue ? &context.output_epilogue : nullptr;
  context.outputs[0] = multiply(a, b, plan_matmul(a.shape(), b.shape(), context.node), context.node,
                                context.threads, epilogue, context.output_epilogue_done);
}

}  // namespace

ASC_REGISTER_OP("", "MatMul", 11, 17, matmul_infer, matmul_compute, matmul_cost);

}  // namespace asc::ops
