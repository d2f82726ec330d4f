#include "asc/sdk/half.hpp"

#include <immintrin.h>

#include <cstddef>
#include <string>

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

constexpr std::size_t kLanes = 8;       // floats per __m256
constexpr std::size_t kWideLanes = 16;  // floats per __m512

// AVX-512 converts 16 floats an instruction where F16C's AVX form converts 8: the NPU simulator
// rounds every fp16 tensor with round_to_f16, a few percent of its ResNet-50 run with 8 lanes.
// Both round to nearest, ties to even, so the results are the same bits.
bool have_avx512() {
  static const bool have = [] {
    __builtin_cpu_init();  // idempotent; needed when first called from a constructor
    return __builtin_cpu_supports("avx512f") != 0;
  }();
  return have;
}

// Each converts the elements [0, returned) of in, 16 at a time; the caller does the rest.
__attribute__((target("avx512f"))) std::size_t round_to_f16_avx512(const float* in, float* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + kWideLanes <= n; i += kWideLanes) {
    const __m256i halves = _mm512_cvtps_ph(_mm512_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    _mm512_storeu_ps(out + i, _mm512_cvtph_ps(halves));
  }
  return i;
}

__attribute__((target("avx512f"))) std::size_t to_f16_avx512(const float* in, float16* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + kWideLanes <= n; i += kWideLanes)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
  return i;
}

__attribute__((target("avx512f"))) std::size_t from_f16_avx512(const float16* in, float* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + kWideLanes <= n; i += kWideLanes)
    _mm512_storeu_ps(out + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i))));
  return i;
}

void check_sizes(std::size_t in, std::size_t out, const char* where) {
  if (in != out)
    throw Error(ErrorCode::Internal, std::string(where) + ": input has " + std::to_string(in) +
                                         " elements but output has " + std::to_string(out));
}

}  // namespace

std::uint16_t float_to_f16_bits(float value) { return Eigen::numext::bit_cast<std::uint16_t>(float16(value)); }

float f16_bits_to_float(std::uint16_t bits) {
  return static_cast<float>(Eigen::numext::bit_cast<float16>(bits));
}

std::uint16_t float_to_bf16_bits(float value) { return Eigen::numext::bit_cast<std::uint16_t>(bfloat16(value)); }

float bf16_bits_to_float(std::uint16_t bits) {
  return static_cast<float>(Eigen::numext::bit_cast<bfloat16>(bits));
}

void round_to_f16(std::span<const float> in, std::span<float> out) {
  check_sizes(in.size(), out.size(), "round_to_f16");
  std::size_t i = have_avx512() ? round_to_f16_avx512(in.data(), out.data(), in.size()) : 0;
  for (; i + kLanes <= in.size(); i += kLanes) {
    const __m128i halves = _mm256_cvtps_ph(_mm256_loadu_ps(in.data() + i), _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_ps(out.data() + i, _mm256_cvtph_ps(halves));
  }
  for (; i < in.size(); ++i) out[i] = static_cast<float>(float16(in[i]));
}

void convert(std::span<const float> in, std::span<float16> out) {
  check_sizes(in.size(), out.size(), "convert(float -> float16)");
  std::size_t i = have_avx512() ? to_f16_avx512(in.data(), out.data(), in.size()) : 0;
  for (; i + kLanes <= in.size(); i += kLanes) {
    const __m128i halves = _mm256_cvtps_ph(_mm256_loadu_ps(in.data() + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out.data() + i), halves);
  }
  for (; i < in.size(); ++i) out[i] = float16(in[i]);
}

void convert(std::span<const float16> in, std::span<float> out) {
  check_sizes(in.size(), out.size(), "convert(float16 -> float)");
  std::size_t i = have_avx512() ? from_f16_avx512(in.data(), out.data(), in.size()) : 0;
  for (; i + kLanes <= in.size(); i += kLanes) {
    const __m128i halves = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in.data() + i));
    _mm256_storeu_ps(out.data() + i, _mm256_cvtph_ps(halves));
  }
  for (; i < in.size(); ++i) out[i] = static_cast<float>(in[i]);
}

void convert(std::span<const float> in, std::span<bfloat16> out) {
  check_sizes(in.size(), out.size(), "convert(float -> bfloat16)");
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = bfloat16(in[i]);
}

void convert(std::span<const bfloat16> in, std::span<float> out) {
  check_sizes(in.size(), out.size(), "convert(bfloat16 -> float)");
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<float>(in[i]);
}

}  // namespace asc
