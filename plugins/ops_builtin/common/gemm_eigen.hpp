// The Eigen GEMM behind gemm_kernels.hpp, included by each kernel variant's source file (each
// compiled with its own instruction-set flags). Internal linkage, so the variants never merge.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace asc::ops {
namespace {

template <class T>
void eigen_gemm(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
                const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using ConstMap = Eigen::Map<const Matrix, Eigen::Unaligned, Eigen::OuterStride<>>;
  using Map = Eigen::Map<Matrix, Eigen::Unaligned, Eigen::OuterStride<>>;
  Map out(c, m, n, Eigen::OuterStride<>(ldc));
  if (beta == T(0)) out.setZero();
  else if (beta != T(1)) out *= beta;
  if (m == 0 || n == 0 || k == 0) return;
  const ConstMap stored_a(a, transpose_a ? k : m, transpose_a ? m : k, Eigen::OuterStride<>(lda));
  const ConstMap stored_b(b, transpose_b ? n : k, transpose_b ? k : n, Eigen::OuterStride<>(ldb));
  if (transpose_a && transpose_b) out.noalias() += alpha * stored_a.transpose() * stored_b.transpose();
  else if (transpose_a) out.noalias() += alpha * stored_a.transpose() * stored_b;
  else if (transpose_b) out.noalias() += alpha * stored_a * stored_b.transpose();
  else out.noalias() += alpha * stored_a * stored_b;
}

}  // namespace
}  // namespace asc::ops
