// dnnl_sgemm as one thread's GEMM (common/onednn_runtime.hpp: oneDNN runs on the calling pool
// thread alone). Measured on the ResNet-50 conv GEMM shapes, one core of the 2-core Zen 5 VM:
// 130-220 GFLOP/s against Eigen's AVX2 + FMA kernel's 35-110 (BENCHMARKS.md).
#if defined(ASC_HAVE_ONEDNN)
#include "common/gemm_onednn.hpp"

#include <dnnl.h>

#include "common/onednn_runtime.hpp"

namespace asc::ops {

bool onednn_sgemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                  const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                  std::int64_t ldc) {
  onednn_on_calling_thread();
  return dnnl_sgemm(transpose_a ? 'T' : 'N', transpose_b ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c,
                    ldc) == dnnl_success;
}

}  // namespace asc::ops
#endif
