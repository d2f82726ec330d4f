#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "asc/sdk/half.hpp"

namespace {

std::uint16_t bits_of(asc::float16 h) {
  std::uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}
std::uint16_t bits_of(asc::bfloat16 h) {
  std::uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

// Finite values across the float16 range (normal, subnormal, overflowing) plus specials.
std::vector<float> sample_floats(std::size_t count) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> wide(-70000.0f, 70000.0f);
  std::uniform_real_distribution<float> small(-1e-4f, 1e-4f);
  std::vector<float> values;
  for (std::size_t i = 0; values.size() < std::max<std::size_t>(count, 32); ++i)
    values.push_back(i % 3 == 0 ? small(rng) : wide(rng));
  values[5] = std::numeric_limits<float>::infinity();
  values[17] = -std::numeric_limits<float>::infinity();
  values[29] = 65520.0f;
  values[30] = -0.0f;
  values[31] = std::ldexp(1.0f, -25);
  values.resize(count);
  return values;
}

}  // namespace

TEST_CASE("float16 conversions match known bit patterns") {
  CHECK(asc::float_to_f16_bits(1.0f) == 0x3C00);
  CHECK(asc::float_to_f16_bits(-2.0f) == 0xC000);
  CHECK(asc::float_to_f16_bits(65504.0f) == 0x7BFF);
  CHECK(asc::float_to_f16_bits(std::ldexp(1.0f, -24)) == 0x0001);  // smallest subnormal
  CHECK(asc::float_to_f16_bits(std::numeric_limits<float>::infinity()) == 0x7C00);
  CHECK(asc::float_to_f16_bits(-std::numeric_limits<float>::infinity()) == 0xFC00);
  CHECK(asc::float_to_f16_bits(0.1f) == 0x2E66);
  CHECK(asc::float_to_f16_bits(-0.0f) == 0x8000);
  const std::uint16_t nan = asc::float_to_f16_bits(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7C00) == 0x7C00);
  CHECK((nan & 0x03FF) != 0);
}

TEST_CASE("float16 rounds to nearest, ties to even") {
  // 1 + 2^-11 lies halfway between 0x3C00 (1.0) and 0x3C01: the even mantissa wins.
  CHECK(asc::float_to_f16_bits(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);
  // 1 + 3*2^-11 lies halfway between 0x3C01 and 0x3C02.
  CHECK(asc::float_to_f16_bits(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);
  // Just above the halfway point rounds up.
  CHECK(asc::float_to_f16_bits(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)) == 0x3C01);
  // 65520 is halfway between 65504 and 65536 (which overflows): ties to even gives infinity.
  CHECK(asc::float_to_f16_bits(65520.0f) == 0x7C00);
  CHECK(asc::float_to_f16_bits(65519.0f) == 0x7BFF);
  // Subnormals: 2^-25 is halfway between 0 and 2^-24; 3*2^-25 between 0x0001 and 0x0002.
  CHECK(asc::float_to_f16_bits(std::ldexp(1.0f, -25)) == 0x0000);
  CHECK(asc::float_to_f16_bits(3 * std::ldexp(1.0f, -25)) == 0x0002);
}

TEST_CASE("float16 bits decode to the exact float") {
  CHECK(asc::f16_bits_to_float(0x3C00) == 1.0f);
  CHECK(asc::f16_bits_to_float(0xC000) == -2.0f);
  CHECK(asc::f16_bits_to_float(0x7BFF) == 65504.0f);
  CHECK(asc::f16_bits_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(asc::f16_bits_to_float(0x2E66) == 0.0999755859375f);
  CHECK(std::isinf(asc::f16_bits_to_float(0x7C00)));
  CHECK(std::isnan(asc::f16_bits_to_float(0x7E00)));
}

TEST_CASE("bfloat16 conversions match known bit patterns") {
  CHECK(asc::float_to_bf16_bits(1.0f) == 0x3F80);
  CHECK(asc::float_to_bf16_bits(0.1f) == 0x3DCD);  // 0x3DCCCCCD rounds up
  CHECK(asc::float_to_bf16_bits(-2.0f) == 0xC000);
  // 1 + 2^-8 (0x3F808000) is a tie: even 0x3F80; 1 + 3*2^-8 (0x3F818000) ties up to 0x3F82.
  CHECK(asc::float_to_bf16_bits(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);
  CHECK(asc::float_to_bf16_bits(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3F82);
  CHECK(asc::bf16_bits_to_float(0x3F80) == 1.0f);
  CHECK(asc::bf16_bits_to_float(0x3DCD) == 0.10009765625f);
  CHECK(asc::bf16_bits_to_float(0x7F80) == std::numeric_limits<float>::infinity());
}

TEST_CASE("bulk float16 conversion equals the scalar one, tail included") {
  const std::vector<float> input = sample_floats(1003);  // not a multiple of 8
  std::vector<asc::float16> halves(input.size());
  asc::convert(input, halves);
  std::vector<float> back(input.size());
  asc::convert(std::span<const asc::float16>(halves), std::span<float>(back));
  for (std::size_t i = 0; i < input.size(); ++i) {
    CAPTURE(i);
    CAPTURE(input[i]);
    const std::uint16_t expected = asc::float_to_f16_bits(input[i]);
    CHECK(bits_of(halves[i]) == expected);
    const float decoded = asc::f16_bits_to_float(expected);
    CHECK(std::memcmp(&back[i], &decoded, sizeof decoded) == 0);
  }
}

// Every float16 value, the floats half-way between neighbours (the ties) and one float either
// side of each tie: the bulk paths (16 lanes with AVX-512, 8 with F16C) against the scalar one.
TEST_CASE("bulk float16 rounding equals the scalar one at every tie") {
  std::vector<float> values;
  for (std::uint32_t bits = 0; bits < 0x7C00; ++bits) {  // the finite non-negative halves
    const float low = asc::f16_bits_to_float(static_cast<std::uint16_t>(bits));
    const float high = asc::f16_bits_to_float(static_cast<std::uint16_t>(bits + 1));
    const float tie = low + (high - low) / 2;  // exact: 12 significant bits
    for (const float value : {low, std::nextafter(tie, low), tie, std::nextafter(tie, high)}) {
      values.push_back(value);
      values.push_back(-value);
    }
  }
  values.push_back(std::numeric_limits<float>::quiet_NaN());
  values.push_back(std::numeric_limits<float>::infinity());
  values.push_back(std::numeric_limits<float>::max());
  values.push_back(std::numeric_limits<float>::denorm_min());
  values.push_back(1.0f);  // 8 * 0x7C00 + 5: a tail past both vector widths
  std::vector<float> rounded(values.size());
  asc::round_to_f16(values, rounded);
  std::vector<asc::float16> halves(values.size());
  asc::convert(values, halves);
  std::vector<float> widened(values.size());
  asc::convert(std::span<const asc::float16>(halves), std::span<float>(widened));
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint16_t expected = asc::float_to_f16_bits(values[i]);
    const float decoded = asc::f16_bits_to_float(expected);
    if (bits_of(halves[i]) != expected || std::memcmp(&rounded[i], &decoded, sizeof decoded) != 0 ||
        std::memcmp(&widened[i], &decoded, sizeof decoded) != 0) {
      if (++mismatches <= 5) MESSAGE("element " << i << " (" << values[i] << ") converts differently");
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("round_to_f16 works in place") {
  std::vector<float> values = sample_floats(1003);
  const std::vector<float> original = values;
  asc::round_to_f16(values, values);
  for (std::size_t i = 0; i < values.size(); ++i) {
    CAPTURE(i);
    const float expected = asc::f16_bits_to_float(asc::float_to_f16_bits(original[i]));
    CHECK(std::memcmp(&values[i], &expected, sizeof expected) == 0);
  }
}

TEST_CASE("bulk bfloat16 conversion equals the scalar one") {
  const std::vector<float> input = sample_floats(37);
  std::vector<asc::bfloat16> packed(input.size());
  asc::convert(input, packed);
  std::vector<float> back(input.size());
  asc::convert(std::span<const asc::bfloat16>(packed), std::span<float>(back));
  for (std::size_t i = 0; i < input.size(); ++i) {
    CAPTURE(i);
    CHECK(bits_of(packed[i]) == asc::float_to_bf16_bits(input[i]));
    CHECK(back[i] == asc::bf16_bits_to_float(asc::float_to_bf16_bits(input[i])));
  }
}
