// Eigen's GEMM for the target's default instruction set (gemm_kernels.hpp).
#include "common/gemm_eigen.hpp"
#include "common/gemm_kernels.hpp"

namespace asc::ops {

GemmKernels baseline_gemm_kernels() { return {&eigen_gemm<float>, &eigen_gemm<double>}; }

}  // namespace asc::ops
