#include "block_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "element_errors.hpp"
#include "fast_log.hpp"

// Each kernel is compiled for baseline x86-64, AVX2 (x86-64-v3) and AVX-512 (x86-64-v4) and
// picked at load time; the reductions vectorise through `omp simd` (-fopenmp-simd, no runtime).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ASC_VALIDATOR_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define ASC_VALIDATOR_CLONES
#endif

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

template <bool kExactLog>
[[gnu::always_inline]] inline SecondPassSums second_pass(const double* golden, const double* actual,
                                                         std::size_t count, const SecondPassConstants& c) {
  double p_sum = 0, q_sum = 0, p_log_ratio = 0, actual_squares = 0, golden_squares = 0, error_squares = 0,
         error_golden = 0;
#pragma omp simd reduction(+ : p_sum, q_sum, p_log_ratio, actual_squares, golden_squares, error_squares, \
                               error_golden)
  for (std::size_t i = 0; i < count; ++i) {
    const double g = golden[i], a = actual[i];
    const double p = std::max((a - c.actual_offset) * c.actual_scale, kKlFloor);
    const double q = std::max((g - c.golden_offset) * c.golden_scale, kKlFloor);
    const double ratio = p / q;
    p_sum += p;
    q_sum += q;
    p_log_ratio += p * (kExactLog ? std::log(ratio) : fast_log(ratio));
    const double centered_actual = a - c.actual_mean, centered_golden = g - c.golden_mean;
    const double centered_error = (a - g) - c.error_mean;
    actual_squares += centered_actual * centered_actual;
    golden_squares += centered_golden * centered_golden;
    error_squares += centered_error * centered_error;
    error_golden += centered_error * centered_golden;
  }
  return {p_sum, q_sum, p_log_ratio, actual_squares, golden_squares, error_squares, error_golden};
}

}  // namespace

ASC_VALIDATOR_CLONES
SecondPassSums second_pass_block(const double* golden, const double* actual, std::size_t count,
                                 const SecondPassConstants& constants) {
  return second_pass<false>(golden, actual, count, constants);
}

SecondPassSums second_pass_block_exact_log(const double* golden, const double* actual, std::size_t count,
                                           const SecondPassConstants& constants) {
  return second_pass<true>(golden, actual, count, constants);
}

}  // namespace asc::validator
