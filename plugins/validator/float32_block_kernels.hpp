// The two passes over a block of float32 golden/actual values read in place, for the commonest
// comparison (two contiguous float32 tensors). On CPUs with AVX-512 the kernels convert each
// vector to float64 as they load it: no widened copy of the block is written and read back, and
// the reading of memory overlaps the arithmetic instead of stalling a separate widening loop.
// Elsewhere they widen the block and run the float64 kernels (block_kernels.hpp). Results are
// those of the float64 kernels up to the order of summation: every value is computed in float64.
#pragma once

#include <cstddef>

#include "block_kernels.hpp"

namespace asc::validator {

// As first_pass_block over the blocks widened to float64. `count` > 0.
FirstPassSums first_pass_block(const float* golden, const float* actual, std::size_t count,
                               double abs_tolerance, double rel_tolerance, double* abs_error);

// As second_pass_block over the blocks widened to float64 (so constants.normalised is required).
SecondPassSums second_pass_block(const float* golden, const float* actual, std::size_t count,
                                 const SecondPassConstants& constants);

// Whether the in-place AVX-512 kernels run on this CPU (else the widening fallback does).
bool float32_kernels_in_place();

}  // namespace asc::validator
