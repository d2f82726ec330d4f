#include "common/gemm.hpp"

#include "common/gemm_kernels.hpp"
#include "common/gemm_onednn.hpp"

namespace asc::ops {
namespace {

// The fastest kernel variant this CPU can run, chosen once.
const GemmKernels& kernels() {
  static const GemmKernels chosen = [] {
#if defined(ASC_GEMM_AVX2_FMA)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return avx2_fma_gemm_kernels();
#endif
    return baseline_gemm_kernels();
  }();
  return chosen;
}

}  // namespace

void gemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc) {
#if defined(ASC_HAVE_ONEDNN)
  // oneDNN for every real product (about twice Eigen's throughput here); Eigen keeps the empty
  // ones (its beta handling with k == 0) and anything oneDNN refuses.
  if (m > 0 && n > 0 && k > 0 &&
      onednn_sgemm(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
    return;
#endif
  kernels().f32(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          const double* a, std::int64_t lda, const double* b, std::int64_t ldb, double beta, double* c,
          std::int64_t ldc) {
  kernels().f64(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace asc::ops
