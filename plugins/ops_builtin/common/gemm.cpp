#include "common/gemm.hpp"

#include <algorithm>

#include <asc/sdk/parallel.hpp>

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

// Products below this many multiply-adds are not worth a second thread's wake-up.
constexpr double kParallelMacs = 1 << 18;
// Rows or columns per block at least (a GEMM micro-kernel's tile is up to 16-48 wide).
constexpr std::int64_t kMinBlock = 32;

template <class T>
void parallel_gemm(int threads, bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k,
                   T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
                   std::int64_t ldc) {
  const bool by_rows = m >= n;
  const std::int64_t extent = by_rows ? m : n;
  const std::int64_t blocks = std::min<std::int64_t>(threads, extent / kMinBlock);
  if (threads <= 1 || blocks < 2 || static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) < kParallelMacs) {
    gemm(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  const std::int64_t per_block = (extent + blocks - 1) / blocks;
  parallel_for(threads, blocks, [&](std::int64_t block) {
    const std::int64_t begin = block * per_block;
    const std::int64_t count = std::min(extent, begin + per_block) - begin;
    if (count <= 0) return;
    if (by_rows)  // rows [begin, begin + count) of op(A) and C
      gemm(transpose_a, transpose_b, count, n, k, alpha, transpose_a ? a + begin : a + begin * lda, lda, b, ldb, beta,
           c + begin * ldc, ldc);
    else  // columns [begin, begin + count) of op(B) and C
      gemm(transpose_a, transpose_b, m, count, k, alpha, a, lda, transpose_b ? b + begin * ldb : b + begin, ldb, beta,
           c + begin, ldc);
  });
}

template void parallel_gemm<float>(int, bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*,
                                   std::int64_t, const float*, std::int64_t, float, float*, std::int64_t);
template void parallel_gemm<double>(int, bool, bool, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                                    std::int64_t, const double*, std::int64_t, double, double*, std::int64_t);

}  // namespace asc::ops
