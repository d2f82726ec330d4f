// The AVX-512 kernels behind float32_block_kernels.hpp (float32_block_kernels_avx512.cpp, the
// only file compiled for AVX-512). Call them only when the CPU has AVX-512 F, DQ and VL and FMA.
#pragma once

#include <cstddef>

#include "block_kernels.hpp"

namespace asc::validator {

FirstPassSums first_pass_block_avx512(const float* golden, const float* actual, std::size_t count,
                                      double abs_tolerance, double rel_tolerance, double* abs_error);

SecondPassSums second_pass_block_avx512(const float* golden, const float* actual, std::size_t count,
                                        const SecondPassConstants& constants);

}  // namespace asc::validator
