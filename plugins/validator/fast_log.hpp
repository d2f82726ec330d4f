// Logarithms the compiler can vectorise (std::log is a library call it cannot), for the KL
// divergence pass. Accurate to a few units in the last place for positive normal doubles;
// callers use std::log when an argument could be zero, subnormal, infinite or NaN.
#pragma once

#include <bit>
#include <cstdint>

namespace asc::validator {

// The largest |s| two_atanh takes: 3 - 2 sqrt(2), where (1 + s)/(1 - s) = sqrt(2).
inline constexpr double kTwoAtanhBound = 0.17157287525380990;

// 2 atanh(s) = log((1 + s)/(1 - s)) for |s| <= kTwoAtanhBound. atanh(s)/s = 1 + z R(z) with
// z = s^2 and R a degree-6 polynomial interpolating at Chebyshev nodes of [0, kTwoAtanhBound^2]
// (relative error below 5e-16 in R, so below 5e-18 in the result; computed with mpmath at 50
// digits).
inline double two_atanh(double s) {
  const double z = s * s;
  double r = 0.073082248425217029302;
  r = r * z + 0.076658608002780206343;
  r = r * z + 0.090914445626308610401;
  r = r * z + 0.11111105567397539928;
  r = r * z + 0.14285714312987742461;
  r = r * z + 0.19999999999949752245;
  r = r * z + 0.33333333333333348431;
  return 2.0 * s + 2.0 * s * z * r;
}

inline double fast_log(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  // x = 2^e * m with m in [sqrt(1/2), sqrt(2)); the 2^62 bias keeps the subtraction unsigned.
  const std::uint64_t biased_exponent = (bits - 0x3fe6a09e667f3bcdULL + (1ULL << 62)) >> 52;  // e + 1024
  const double m = std::bit_cast<double>(bits - (biased_exponent << 52) + (1024ULL << 52));
  // int -> double without a conversion instruction SSE2/AVX2 lack for 64-bit lanes.
  const double e =
      std::bit_cast<double>(biased_exponent | 0x4330000000000000ULL) - (4503599627370496.0 + 1024.0);
  // log(m) = 2 atanh(s) with s = (m - 1)/(m + 1), |s| <= kTwoAtanhBound.
  return two_atanh((m - 1.0) / (m + 1.0)) + e * 0.69314718055994530942;
}

}  // namespace asc::validator
