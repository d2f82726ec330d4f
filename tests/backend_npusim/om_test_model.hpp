// A CompiledModel built by hand for the .om tests: every attribute kind, symbolic and unknown
// dims, fp16-placed float32 weights, an int64 weight, inserted and fused nodes, two profiles.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/compiled_model.hpp"

namespace asc::test {

// Elements of the conv weight "w" ([64, 32, 3, 3]): multiples of 1/256 in [-4, 4) plus fp16's
// extremes (65504, the smallest normal 2^-14, the smallest subnormal 2^-24, -0.0), all exactly
// representable in float16.
std::vector<float> om_test_weight_values();
inline constexpr std::int64_t kOmTestWeightElements = 64 * 32 * 3 * 3;

// `weight_dtype` is the device dtype the profiles place "w" and "b" at (Float16 under
// force_fp16, Float32 for an fp32 build of the same model).
npusim::CompiledModel om_test_model(DType weight_dtype = DType::Float16);

}  // namespace asc::test
