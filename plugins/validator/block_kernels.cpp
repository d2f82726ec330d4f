#include "block_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "element_errors.hpp"
#include "fast_log.hpp"
#include "simd_clones.hpp"

// Each kernel is cloned per instruction set (simd_clones.hpp); the reductions vectorise through
// `omp simd` (-fopenmp-simd, no runtime).

namespace asc::validator {

bool FirstPassSums::finite() const {
  return std::isfinite(actual_sum + golden_sum + abs_error_sum + rel_error_sum);
}

bool SecondPassSums::finite() const {
  return std::isfinite(kl_p_sum + kl_q_sum + kl_p_log_ratio + centered_actual_squares +
                       centered_golden_squares + centered_error_squares + centered_error_golden);
}

ASC_VALIDATOR_CLONES
FirstPassSums first_pass_block(const double* golden, const double* actual, std::size_t count,
                               double abs_tolerance, double rel_tolerance, double* abs_error) {
  double abs_sum = 0, error_sum = 0, rel_sum = 0, accumulated = 0, abs_max = 0, rel_max = 0;
  double actual_sum = 0, golden_sum = 0;
  double actual_min = actual[0], actual_max = actual[0], golden_min = golden[0], golden_max = golden[0];
  // An integer counter: a floating-point conditional add reads as control flow to the vectoriser.
  std::int64_t failing = 0;
#pragma omp simd reduction(+ : abs_sum, error_sum, rel_sum, accumulated, actual_sum, golden_sum, failing) \
    reduction(max : abs_max, rel_max, actual_max, golden_max) reduction(min : actual_min, golden_min)
  for (std::size_t i = 0; i < count; ++i) {
    const double g = golden[i], a = actual[i];
    const double error = a - g;
    const double abs = std::fabs(error), golden_abs = std::fabs(g);
    const double rel = relative_error(abs, g);
    abs_error[i] = abs;
    abs_sum += abs;
    error_sum += error;
    rel_sum += rel;
    // |a/g - 1| where |g| > eps, else 0: dividing by +Inf gives the 0 without a conditional
    // division, which the compiler would not vectorise (it might trap).
    const double ratio_divisor =
        golden_abs > kMsitEpsilon ? golden_abs : std::numeric_limits<double>::infinity();
    accumulated += abs / ratio_divisor;
    abs_max = std::max(abs_max, abs);
    rel_max = std::max(rel_max, rel);
    actual_sum += a;
    golden_sum += g;
    actual_min = std::min(actual_min, a);
    actual_max = std::max(actual_max, a);
    golden_min = std::min(golden_min, g);
    golden_max = std::max(golden_max, g);
    failing += exceeds_tolerance(abs, rel, abs_tolerance, rel_tolerance) ? 1 : 0;
  }
  FirstPassSums sums;
  sums.abs_error_sum = abs_sum;
  sums.error_sum = error_sum;
  sums.rel_error_sum = rel_sum;
  sums.accumulated_rel_error = accumulated;
  sums.abs_error_max = abs_max;
  sums.rel_error_max = rel_max;
  sums.actual_sum = actual_sum;
  sums.golden_sum = golden_sum;
  sums.actual_min = actual_min;
  sums.actual_max = actual_max;
  sums.golden_min = golden_min;
  sums.golden_max = golden_max;
  sums.failing = failing;
  return sums;
}

namespace {

// How the second pass takes log(P/Q).
enum class LogRatio {
  Exact,    // std::log (scalar)
  Fast,     // fast_log(P/Q): two divisions and a range reduction, any P/Q
  NearOne,  // 2 atanh((P-Q)/(P+Q)): one division, only where P/Q is in [sqrt(1/2), sqrt(2)]
};

// With LogRatio::NearOne, the terms of the elements outside that range are left out of
// p_log_ratio and counted in `far`; `near_args` receives every element's (P-Q)/(P+Q) so that the
// caller can find them.
template <LogRatio kLog>
[[gnu::always_inline]] inline SecondPassSums second_pass(const double* golden, const double* actual,
                                                         std::size_t count, const SecondPassConstants& c,
                                                         double* near_args, std::int64_t& far) {
  double p_sum = 0, q_sum = 0, p_log_ratio = 0, actual_squares = 0, golden_squares = 0, error_squares = 0,
         error_golden = 0;
  std::int64_t outside = 0;
#pragma omp simd reduction(+ : p_sum, q_sum, p_log_ratio, actual_squares, golden_squares, error_squares, \
                               error_golden, outside)
  for (std::size_t i = 0; i < count; ++i) {
    const double g = golden[i], a = actual[i];
    const double p = kl_value(a, c.actual_offset, c.actual_scale);
    const double q = kl_value(g, c.golden_offset, c.golden_scale);
    p_sum += p;
    q_sum += q;
    if constexpr (kLog == LogRatio::NearOne) {
      // P - Q is exact there (Sterbenz), so the logarithm is accurate relative to itself even
      // where P and Q almost agree. A conditional add, not a branch: the loop stays vectorised.
      const double arg = (p - q) / (p + q);
      near_args[i] = arg;
      const bool near = std::fabs(arg) <= kTwoAtanhBound;
      p_log_ratio += near ? p * two_atanh(arg) : 0.0;
      outside += near ? 0 : 1;
    } else {
      p_log_ratio += p * (kLog == LogRatio::Exact ? std::log(p / q) : fast_log(p / q));
    }
    const double centered_actual = a - c.actual_mean, centered_golden = g - c.golden_mean;
    const double centered_error = (a - g) - c.error_mean;
    actual_squares += centered_actual * centered_actual;
    golden_squares += centered_golden * centered_golden;
    error_squares += centered_error * centered_error;
    error_golden += centered_error * centered_golden;
  }
  far = outside;
  return {p_sum, q_sum, p_log_ratio, actual_squares, golden_squares, error_squares, error_golden};
}

}  // namespace

// For two close tensors nearly every P/Q is near 1 (the others are elements near either side's
// minimum, where P or Q is tiny): NearOne first, then the few elements it left out.
ASC_VALIDATOR_CLONES
SecondPassSums second_pass_block(const double* golden, const double* actual, std::size_t count,
                                 const SecondPassConstants& c) {
  double near_args[kBlockSize];
  std::int64_t far = 0;
  SecondPassSums sums = second_pass<LogRatio::NearOne>(golden, actual, count, c, near_args, far);
  if (far == 0) return sums;
  if (far > kMaxFixedLogElements) return second_pass_block_fast_log(golden, actual, count, c);
  for (std::size_t i = 0; i < count; ++i) {
    // A NaN argument (a non-finite input) lands here too; the NaN sum then has the caller redo
    // the block without it.
    if (std::fabs(near_args[i]) <= kTwoAtanhBound) continue;
    const double p = kl_value(actual[i], c.actual_offset, c.actual_scale);
    const double q = kl_value(golden[i], c.golden_offset, c.golden_scale);
    sums.kl_p_log_ratio += p * std::log(p / q);
  }
  return sums;
}

ASC_VALIDATOR_CLONES
SecondPassSums second_pass_block_fast_log(const double* golden, const double* actual, std::size_t count,
                                          const SecondPassConstants& constants) {
  std::int64_t far = 0;
  return second_pass<LogRatio::Fast>(golden, actual, count, constants, nullptr, far);
}

SecondPassSums second_pass_block_exact_log(const double* golden, const double* actual, std::size_t count,
                                           const SecondPassConstants& constants) {
  std::int64_t far = 0;
  return second_pass<LogRatio::Exact>(golden, actual, count, constants, nullptr, far);
}

}  // namespace asc::validator
