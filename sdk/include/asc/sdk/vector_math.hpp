// Float exp and erf that a compiler can vectorise. std::exp and std::erf are library calls, so a
// loop over them runs one element at a time; these are branch-free inline polynomials, so a loop
// like
//
//   #pragma omp simd
//   for (i = 0; i < n; ++i) y[i] = asc::vector_exp(x[i]);
//
// runs 8 or 16 elements per instruction when the function holding it is compiled for AVX2 or
// AVX-512: mark that function ASC_VECTOR_CLONES (below). Header only: nothing to link.
//
// Accuracy over every float (tests/sdk/test_vector_math.cpp checks it against the double
// functions): vector_exp within 2 units in the last place for results of at least FLT_MIN
// (x >= -87.33), 0 below that, +inf above 88.72; vector_erf within 3 units in the last place
// (absolute error below 1.1e-7). NaN in gives NaN out; infinities give the limits.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

// Marks a function whose loops vectorise to be compiled for baseline x86-64, AVX2 + FMA
// (x86-64-v3) and AVX-512 (x86-64-v4), the best clone picked by the CPU at load time, so that a
// plugin built for any x86-64 still runs its per-element loops at the machine's vector width.
// GCC on x86-64 only; elsewhere the function is compiled once, for the build's target.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ASC_VECTOR_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define ASC_VECTOR_CLONES
#endif

namespace asc {

// exp(x) = 2^n exp(r), n = round(x / ln 2), r = x - n ln 2 in [-ln 2 / 2, ln 2 / 2], exp(r) by
// Cephes' degree-7 polynomial (S. L. Moshier, expf.c).
inline float vector_exp(float x) {
  constexpr float kHighest = 88.7228f;  // exp(88.7229) overflows
  constexpr float kLowest = -87.3365f;  // exp below this is under FLT_MIN (2^-126)
  // Clamped by comparisons so that NaN passes through (std::min/max would drop it).
  const float clamped = x > kHighest ? kHighest : (x < kLowest ? kLowest : x);
  // Round to nearest by adding 1.5 * 2^23: the sum's low mantissa bits hold n (|n| <= 128),
  // so n and 2^n come from bit operations, with no float -> int conversion (undefined for NaN).
  constexpr float kRound = 12582912.0f;
  const float shifted = clamped * 1.44269504088896341f + kRound;
  const float n = shifted - kRound;
  const float r = (clamped - n * 0.693359375f) + n * 2.12194440e-4f;  // ln 2 in two parts
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float exp_r = p * r * r + r + 1.0f;
  // n from the low bits of `shifted` (0x4b400000 + n); 2^n as two factors 2^(n/2) and
  // 2^(n - n/2), each a normal float for every n in [-126, 128].
  const auto n_int = static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(shifted) - 0x4b400000u);
  const std::int32_t half_n = n_int >> 1;
  const float scale_a = std::bit_cast<float>(static_cast<std::uint32_t>(half_n + 127) << 23);
  const float scale_b = std::bit_cast<float>(static_cast<std::uint32_t>(n_int - half_n + 127) << 23);
  const float result = exp_r * scale_a * scale_b;
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  return x < kLowest ? 0.0f : (x > kHighest ? kInfinity : result);  // NaN: result is NaN
}

// erf(x) = x P(x^2) for |x| <= 0.875, 1 - exp(-x^2) Q(1/|x|) (sign restored) for
// 0.875 < |x| < 3.92, and +-1 beyond, where erf rounds to 1 in float. P (degree 5) and Q
// (degree 9 in 1/|x| - 0.699) are weighted least-squares fits to mpmath's erf at 40 digits
// (relative error 9e-9 and 5e-8: tools/fit_vector_math.py).
inline float vector_erf(float x) {
  const float a = x < 0.0f ? -x : x;
  const float z = x * x;
  float p = -6.199347341322447e-4f;
  p = p * z + 5.031427040359278e-3f;
  p = p * z - 2.6790952219524457e-2f;
  p = p * z + 1.1282441165098062e-1f;
  p = p * z - 3.76125490857651e-1f;
  p = p * z + 1.1283791572823076f;
  const float small = x * p;

  const float t = 1.0f / (a < 0.875f ? 0.875f : a) - 0.6989795918367346f;
  float q = 1.4954257789495504e-2f;
  q = q * t + 2.0508796998908456e-3f;
  q = q * t - 2.4891981513218267e-2f;
  q = q * t + 3.2280981266085286e-2f;
  q = q * t - 3.0189886972030587e-2f;
  q = q * t + 9.050576796902653e-3f;
  q = q * t + 4.8402618958634715e-2f;
  q = q * t - 1.6208478787459835e-1f;
  q = q * t + 3.575265711341179e-1f;
  q = q * t + 3.3330899167954187e-1f;
  const float tail = 1.0f - vector_exp(-z) * q;
  const float large = a >= 3.92f ? 1.0f : tail;
  const float signed_large = x < 0.0f ? -large : large;
  return a <= 0.875f ? small : (x == x ? signed_large : x);
}

}  // namespace asc
