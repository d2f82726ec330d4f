// dnnl_sgemm as one thread's GEMM. Debian's oneDNN threads with OpenMP; the kernels already split
// their work over asc::parallel_for's pool (one GEMM per column block or channel range, each on its
// own pool thread), so each calling thread caps its own OpenMP team at 1: oneDNN then runs on the
// caller and never starts a second, spinning thread team beside the pool on the same cores.
// Measured on the ResNet-50 conv GEMM shapes, one core of the 2-core Zen 5 VM: 130-220 GFLOP/s
// against Eigen's AVX2 + FMA kernel's 35-110 (BENCHMARKS.md).
#if defined(ASC_HAVE_ONEDNN)
#include "common/gemm_onednn.hpp"

#include <dnnl.h>
#include <omp.h>

namespace asc::ops {

bool onednn_sgemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                  const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                  std::int64_t ldc) {
  thread_local const bool single_threaded = [] {
    omp_set_num_threads(1);
    return true;
  }();
  (void)single_threaded;
  return dnnl_sgemm(transpose_a ? 'T' : 'N', transpose_b ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c,
                    ldc) == dnnl_success;
}

}  // namespace asc::ops
#endif
