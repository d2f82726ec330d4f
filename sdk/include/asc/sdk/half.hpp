// Bit-exact float16 / bfloat16 conversions (round to nearest even), single values and bulk.
#pragma once

#include <cstdint>
#include <span>

#include "asc/sdk/dtype.hpp"

namespace asc {

std::uint16_t float_to_f16_bits(float value);
float f16_bits_to_float(std::uint16_t bits);
std::uint16_t float_to_bf16_bits(float value);
float bf16_bits_to_float(std::uint16_t bits);

// Rounds every element to the nearest float16 and back: how the NPU sees an fp32 operand
// stored as fp16. in and out may alias.
void round_to_f16(std::span<const float> in, std::span<float> out);

void convert(std::span<const float> in, std::span<float16> out);
void convert(std::span<const float16> in, std::span<float> out);
void convert(std::span<const float> in, std::span<bfloat16> out);
void convert(std::span<const bfloat16> in, std::span<float> out);

}  // namespace asc
