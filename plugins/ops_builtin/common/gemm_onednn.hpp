// Single-precision GEMM on oneDNN's dnnl_sgemm (Debian's libdnnl-dev), used by common/gemm.cpp
// when the plugin was built with it (ASC_HAVE_ONEDNN).
#pragma once

#include <cstdint>

namespace asc::ops {

// gemm()'s float contract. Returns false when oneDNN refused the arguments (the caller then uses
// the Eigen kernel); m, n and k must be positive.
bool onednn_sgemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                  const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                  std::int64_t ldc);

}  // namespace asc::ops
