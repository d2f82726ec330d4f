// Compiled with -mavx512f -mavx512dq -mavx512vl -mfma (CMakeLists.txt); reached only after a CPU check.
// The arithmetic is that of the float64 kernels (block_kernels.cpp) step for step, on 8 float64
// lanes converted from 8 float32 values at each load. A block's last partial vector goes through
// the same steps with the lanes beyond the block masked off.
#include "float32_block_kernels_avx512.hpp"

#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "element_errors.hpp"
#include "element_reader.hpp"
#include "fast_log.hpp"

namespace asc::validator {
namespace {

constexpr std::size_t kLanes = 8;

__m512d load_widened(const float* values, __mmask8 lanes) {
  return _mm512_cvtps_pd(_mm256_maskz_loadu_ps(lanes, values));
}

__m512d fabs_pd(__m512d v) {
  return _mm512_castsi512_pd(
      _mm512_and_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(std::int64_t{0x7fffffffffffffff})));
}

// Masked accumulation: lanes outside `lanes` keep their value. (A constant all-lanes mask in the
// full-vector loop costs nothing: masking is free on AVX-512.)
__m512d add(__m512d sum, __mmask8 lanes, __m512d v) { return _mm512_mask_add_pd(sum, lanes, sum, v); }
__m512d max(__m512d m, __mmask8 lanes, __m512d v) { return _mm512_mask_max_pd(m, lanes, m, v); }
__m512d min(__m512d m, __mmask8 lanes, __m512d v) { return _mm512_mask_min_pd(m, lanes, m, v); }

__mmask8 tail_lanes(std::size_t remaining) {
  return static_cast<__mmask8>(remaining >= kLanes ? 0xff : (1u << remaining) - 1);
}

struct FirstPassVectors {
  __m512d abs_sum = _mm512_setzero_pd(), error_sum = _mm512_setzero_pd(), rel_sum = _mm512_setzero_pd();
  __m512d accumulated = _mm512_setzero_pd(), abs_max = _mm512_setzero_pd(), rel_max = _mm512_setzero_pd();
  __m512d actual_sum = _mm512_setzero_pd(), golden_sum = _mm512_setzero_pd();
  __m512d actual_min, actual_max, golden_min, golden_max;
  std::int64_t failing = 0;
};

[[gnu::always_inline]] inline void first_pass_step(FirstPassVectors& v, const float* golden, const float* actual,
                                                   __mmask8 lanes, double* abs_error, __m512d abs_tolerance,
                                                   __m512d rel_tolerance) {
  const __m512d g = load_widened(golden, lanes), a = load_widened(actual, lanes);
  const __m512d error = _mm512_sub_pd(a, g);
  const __m512d abs = fabs_pd(error), golden_abs = fabs_pd(g);
  // relative_error() and first_pass_block's |a/g - 1| (divided by +Inf where |g| <= eps).
  const __m512d rel = _mm512_div_pd(abs, _mm512_add_pd(golden_abs, _mm512_set1_pd(kRelativeErrorEpsilon)));
  const __mmask8 divisible = _mm512_cmp_pd_mask(golden_abs, _mm512_set1_pd(kMsitEpsilon), _CMP_GT_OQ);
  const __m512d ratio_divisor =
      _mm512_mask_blend_pd(divisible, _mm512_set1_pd(std::numeric_limits<double>::infinity()), golden_abs);
  _mm512_mask_storeu_pd(abs_error, lanes, abs);
  v.abs_sum = add(v.abs_sum, lanes, abs);
  v.error_sum = add(v.error_sum, lanes, error);
  v.rel_sum = add(v.rel_sum, lanes, rel);
  v.accumulated = add(v.accumulated, lanes, _mm512_div_pd(abs, ratio_divisor));
  v.abs_max = max(v.abs_max, lanes, abs);
  v.rel_max = max(v.rel_max, lanes, rel);
  v.actual_sum = add(v.actual_sum, lanes, a);
  v.golden_sum = add(v.golden_sum, lanes, g);
  v.actual_min = min(v.actual_min, lanes, a);
  v.actual_max = max(v.actual_max, lanes, a);
  v.golden_min = min(v.golden_min, lanes, g);
  v.golden_max = max(v.golden_max, lanes, g);
  // exceeds_tolerance(): abs > abs_tolerance or rel > rel_tolerance.
  const __mmask8 fails = _mm512_mask_cmp_pd_mask(lanes, abs, abs_tolerance, _CMP_GT_OQ) |
                         _mm512_mask_cmp_pd_mask(lanes, rel, rel_tolerance, _CMP_GT_OQ);
  v.failing += __builtin_popcount(fails);
}

struct SecondPassVectors {
  __m512d p_sum = _mm512_setzero_pd(), q_sum = _mm512_setzero_pd(), p_log_ratio = _mm512_setzero_pd();
  __m512d actual_squares = _mm512_setzero_pd(), golden_squares = _mm512_setzero_pd();
  __m512d error_squares = _mm512_setzero_pd(), error_golden = _mm512_setzero_pd();
  std::int64_t far = 0;
};

// two_atanh() on 8 lanes, same coefficients and order of operations.
__m512d two_atanh_pd(__m512d s) {
  const __m512d z = _mm512_mul_pd(s, s);
  __m512d r = _mm512_set1_pd(0.073082248425217029302);
  r = _mm512_fmadd_pd(r, z, _mm512_set1_pd(0.076658608002780206343));
  r = _mm512_fmadd_pd(r, z, _mm512_set1_pd(0.090914445626308610401));
  r = _mm512_fmadd_pd(r, z, _mm512_set1_pd(0.11111105567397539928));
  r = _mm512_fmadd_pd(r, z, _mm512_set1_pd(0.14285714312987742461));
  r = _mm512_fmadd_pd(r, z, _mm512_set1_pd(0.19999999999949752245));
  r = _mm512_fmadd_pd(r, z, _mm512_set1_pd(0.33333333333333348431));
  const __m512d two_s = _mm512_add_pd(s, s);
  return _mm512_fmadd_pd(_mm512_mul_pd(two_s, z), r, two_s);
}

struct SecondPassBroadcasts {
  __m512d actual_offset, actual_scale, golden_offset, golden_scale, floor;
  __m512d actual_mean, golden_mean, error_mean, near_bound;
  explicit SecondPassBroadcasts(const SecondPassConstants& c)
      : actual_offset(_mm512_set1_pd(c.actual_offset)),
        actual_scale(_mm512_set1_pd(c.actual_scale)),
        golden_offset(_mm512_set1_pd(c.golden_offset)),
        golden_scale(_mm512_set1_pd(c.golden_scale)),
        floor(_mm512_set1_pd(kKlFloor)),
        actual_mean(_mm512_set1_pd(c.actual_mean)),
        golden_mean(_mm512_set1_pd(c.golden_mean)),
        error_mean(_mm512_set1_pd(c.error_mean)),
        near_bound(_mm512_set1_pd(kTwoAtanhBound)) {}
};

// The near-one step of second_pass_block: log(P/Q) = 2 atanh((P-Q)/(P+Q)); lanes outside that
// range are left out of p_log_ratio and counted in `far`, their argument kept in `near_args`.
[[gnu::always_inline]] inline void second_pass_step(SecondPassVectors& v, const SecondPassBroadcasts& c,
                                                    const float* golden, const float* actual, __mmask8 lanes,
                                                    double* near_args) {
  const __m512d g = load_widened(golden, lanes), a = load_widened(actual, lanes);
  // kl_value(): max((x - offset) * scale, floor). (_mm512_max_pd differs from std::max only for
  // NaN, and a NaN input makes the moments NaN: the caller then redoes the block without it.)
  const __m512d p = _mm512_max_pd(_mm512_mul_pd(_mm512_sub_pd(a, c.actual_offset), c.actual_scale), c.floor);
  const __m512d q = _mm512_max_pd(_mm512_mul_pd(_mm512_sub_pd(g, c.golden_offset), c.golden_scale), c.floor);
  v.p_sum = add(v.p_sum, lanes, p);
  v.q_sum = add(v.q_sum, lanes, q);
  const __m512d arg = _mm512_div_pd(_mm512_sub_pd(p, q), _mm512_add_pd(p, q));
  _mm512_mask_storeu_pd(near_args, lanes, arg);
  const __mmask8 near = _mm512_mask_cmp_pd_mask(lanes, fabs_pd(arg), c.near_bound, _CMP_LE_OQ);
  v.p_log_ratio = add(v.p_log_ratio, near, _mm512_mul_pd(p, two_atanh_pd(arg)));
  v.far += __builtin_popcount(static_cast<unsigned>(lanes & ~near));
  const __m512d centered_actual = _mm512_sub_pd(a, c.actual_mean);
  const __m512d centered_golden = _mm512_sub_pd(g, c.golden_mean);
  const __m512d centered_error = _mm512_sub_pd(_mm512_sub_pd(a, g), c.error_mean);
  v.actual_squares = _mm512_mask3_fmadd_pd(centered_actual, centered_actual, v.actual_squares, lanes);
  v.golden_squares = _mm512_mask3_fmadd_pd(centered_golden, centered_golden, v.golden_squares, lanes);
  v.error_squares = _mm512_mask3_fmadd_pd(centered_error, centered_error, v.error_squares, lanes);
  v.error_golden = _mm512_mask3_fmadd_pd(centered_error, centered_golden, v.error_golden, lanes);
}

}  // namespace

FirstPassSums first_pass_block_avx512(const float* golden, const float* actual, std::size_t count,
                                      double abs_tolerance, double rel_tolerance, double* abs_error) {
  FirstPassVectors v;
  v.actual_min = v.actual_max = _mm512_set1_pd(actual[0]);
  v.golden_min = v.golden_max = _mm512_set1_pd(golden[0]);
  const __m512d abs_tol = _mm512_set1_pd(abs_tolerance), rel_tol = _mm512_set1_pd(rel_tolerance);
  std::size_t i = 0;
  for (; i + kLanes <= count; i += kLanes)
    first_pass_step(v, golden + i, actual + i, 0xff, abs_error + i, abs_tol, rel_tol);
  if (i < count) first_pass_step(v, golden + i, actual + i, tail_lanes(count - i), abs_error + i, abs_tol, rel_tol);
  FirstPassSums sums;
  sums.abs_error_sum = _mm512_reduce_add_pd(v.abs_sum);
  sums.error_sum = _mm512_reduce_add_pd(v.error_sum);
  sums.rel_error_sum = _mm512_reduce_add_pd(v.rel_sum);
  sums.accumulated_rel_error = _mm512_reduce_add_pd(v.accumulated);
  sums.abs_error_max = _mm512_reduce_max_pd(v.abs_max);
  sums.rel_error_max = _mm512_reduce_max_pd(v.rel_max);
  sums.actual_sum = _mm512_reduce_add_pd(v.actual_sum);
  sums.golden_sum = _mm512_reduce_add_pd(v.golden_sum);
  sums.actual_min = _mm512_reduce_min_pd(v.actual_min);
  sums.actual_max = _mm512_reduce_max_pd(v.actual_max);
  sums.golden_min = _mm512_reduce_min_pd(v.golden_min);
  sums.golden_max = _mm512_reduce_max_pd(v.golden_max);
  sums.failing = v.failing;
  return sums;
}

SecondPassSums second_pass_block_avx512(const float* golden, const float* actual, std::size_t count,
                                        const SecondPassConstants& constants) {
  alignas(64) double near_args[kBlockSize];
  SecondPassVectors v;
  const SecondPassBroadcasts c(constants);
  std::size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) second_pass_step(v, c, golden + i, actual + i, 0xff, near_args + i);
  if (i < count) second_pass_step(v, c, golden + i, actual + i, tail_lanes(count - i), near_args + i);
  if (v.far > kMaxFixedLogElements) {
    alignas(64) double golden_values[kBlockSize], actual_values[kBlockSize];
    widen_float32(golden, count, golden_values);
    widen_float32(actual, count, actual_values);
    return second_pass_block_fast_log(golden_values, actual_values, count, constants);
  }
  SecondPassSums sums{_mm512_reduce_add_pd(v.p_sum),          _mm512_reduce_add_pd(v.q_sum),
                      _mm512_reduce_add_pd(v.p_log_ratio),    _mm512_reduce_add_pd(v.actual_squares),
                      _mm512_reduce_add_pd(v.golden_squares), _mm512_reduce_add_pd(v.error_squares),
                      _mm512_reduce_add_pd(v.error_golden)};
  if (v.far == 0) return sums;
  // As second_pass_block: the few elements outside the near-one range with std::log (a NaN
  // argument lands here too and makes the sum NaN, for the caller to redo the block).
  for (std::size_t k = 0; k < count; ++k) {
    if (std::fabs(near_args[k]) <= kTwoAtanhBound) continue;
    const double p = kl_value(actual[k], constants.actual_offset, constants.actual_scale);
    const double q = kl_value(golden[k], constants.golden_offset, constants.golden_scale);
    sums.kl_p_log_ratio += p * std::log(p / q);
  }
  return sums;
}

}  // namespace asc::validator
