// The GEMM kernels common/gemm.cpp chooses between at run time: Eigen compiled for the baseline
// x86-64 (or whatever the target's default is) and, on x86-64, Eigen compiled for AVX2 + FMA
// (about 2.5x the baseline's throughput on conv-sized products). Same arguments as gemm().
#pragma once

#include <cstdint>

namespace asc::ops {

template <class T>
using GemmKernel = void (*)(bool transpose_a, bool transpose_b, std::int64_t m, std::int64_t n, std::int64_t k,
                            T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
                            std::int64_t ldc);

struct GemmKernels {
  GemmKernel<float> f32;
  GemmKernel<double> f64;
};

GemmKernels baseline_gemm_kernels();
#if defined(ASC_GEMM_AVX2_FMA)
GemmKernels avx2_fma_gemm_kernels();  // only to be called when the CPU has AVX2 and FMA
#endif

}  // namespace asc::ops
