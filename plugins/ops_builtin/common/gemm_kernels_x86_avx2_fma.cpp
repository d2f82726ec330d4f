// Eigen's GEMM compiled with -mavx2 -mfma (ops_builtin/CMakeLists.txt sets the flags for this file
// alone on x86-64), called only after gemm.cpp has checked the CPU.
//
// Eigen is a header library: compiled twice with different flags, its template instantiations
// would carry the same symbol names in both objects and the linker would keep one of them for
// both callers. Renaming its namespace for this file keeps the AVX2 instantiations apart. (The
// file's name sorts after the baseline's, so for any other inline function both objects emit the
// linker keeps the baseline copy, which every CPU can run.)
#if defined(ASC_GEMM_AVX2_FMA)
#define Eigen EigenAvx2Fma
#include "common/gemm_eigen.hpp"
#undef Eigen
#include "common/gemm_kernels.hpp"

namespace asc::ops {

GemmKernels avx2_fma_gemm_kernels() { return {&eigen_gemm<float>, &eigen_gemm<double>}; }

}  // namespace asc::ops
#endif
