// Single-precision GEMM for the reference kernels (Conv via im2col, MatMul, Gemm): oneDNN when the
// plugin was built with it, else Eigen (common/gemm_kernels.hpp).
#pragma once

#include <cstdint>

namespace asc::ops {

// C[M,N] = alpha * op(A)[M,K] * op(B)[K,N] + beta * C, row-major, with leading dimensions
// lda/ldb/ldc in elements (of the stored, untransposed matrices). beta == 0 ignores C's contents.
void gemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
          std::int64_t ldc);

// The same in double precision (for float64 operands and precise references).
void gemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          const double* a, std::int64_t lda, const double* b, std::int64_t ldb, double beta, double* c,
          std::int64_t ldc);

// gemm() on up to `threads` threads of asc::parallel_for: C is cut into blocks of rows (of
// columns when it has fewer rows than columns), one GEMM each. Every element is still one dot
// product over all of k (no split sums), though the library may choose another kernel for a
// smaller block, so results can differ from gemm()'s in the last bits. Small products run on
// the calling thread.
template <class T>
void parallel_gemm(int threads, bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k,
                   T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
                   std::int64_t ldc);

}  // namespace asc::ops
