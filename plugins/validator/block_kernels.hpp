// The two vectorised passes over a block of golden/actual values (already converted to double).
// Everything else in the validator is per block or per tensor; these loops run per element, so
// they are kept branch-free, carry few accumulators, and are compiled for several instruction sets.
//
// Both assume finite values. They do not check: a NaN or Inf makes their sums non-finite, and
// the caller then takes the non-finite values out and runs the block again (blocks_are_finite).
#pragma once

#include <cstddef>
#include <cstdint>

namespace asc::validator {

// Block size of both passes: the two converted blocks and the two error arrays (8 KB together)
// stay in L1 next to the histogram's hot counters; measured fastest of 128..1024.
inline constexpr std::size_t kBlockSize = 256;

struct FirstPassSums {
  double abs_error_sum = 0, error_sum = 0;  // error = actual - golden
  double rel_error_sum = 0;                 // the seed's RE
  double accumulated_rel_error = 0;         // msaccucmp's sum of |a/g - 1| where |g| > eps
  double abs_error_max = 0, rel_error_max = 0;
  double actual_sum = 0, golden_sum = 0;
  double actual_min = 0, actual_max = 0, golden_min = 0, golden_max = 0;
  // abs error > abs_tolerance or rel error > rel_tolerance. Everything else about failures (which
  // criterion, where) is worked out by the caller for the blocks where this is not 0.
  std::int64_t failing = 0;
  // False when the block held a NaN or Inf (or sums overflowed): redo it without them.
  bool finite() const;
};

// Fills abs_error[i] (for the histogram and the scans of blocks with failures or new worst
// elements, which recompute the relative error: storing it too costs every block) and returns
// the block's sums. `count` > 0.
FirstPassSums first_pass_block(const double* golden, const double* actual, std::size_t count,
                               double abs_tolerance, double rel_tolerance, double* abs_error);

// What the second pass needs from the first: means and the KL normalisation.
struct SecondPassConstants {
  double actual_mean = 0, golden_mean = 0, error_mean = 0;
  // P = max((actual - actual_offset) * actual_scale, kKlFloor); likewise Q for golden.
  double actual_offset = 0, actual_scale = 1, golden_offset = 0, golden_scale = 1;
  // Both sides min-max normalised: P and Q lie in [kKlFloor, 1], so P/Q is in fast_log's domain.
  bool normalised = false;
};

// Centred second moments (about the first pass's means) and the KL sums. The raw moments the
// metrics need follow from these: sum(x^2) = sum((x-m)^2) + n m^2, with no cancellation.
struct SecondPassSums {
  double kl_p_sum = 0, kl_q_sum = 0, kl_p_log_ratio = 0;  // sums of P, Q, P*log(P/Q)
  double centered_actual_squares = 0, centered_golden_squares = 0;
  double centered_error_squares = 0, centered_error_golden = 0;
  bool finite() const;
};

// Above this many elements of a block whose P/Q is outside the near-one range of the second
// pass's logarithm, the block is redone with fast_log rather than fixed element by element with
// std::log (two tensors far apart: the comparison then costs what it did before the near-one
// shortcut, not many times more).
inline constexpr std::int64_t kMaxFixedLogElements = 8;

// Requires constants.normalised (fast_log's domain) and 0 < count <= kBlockSize.
SecondPassSums second_pass_block(const double* golden, const double* actual, std::size_t count,
                                 const SecondPassConstants& constants);
// The same with fast_log for every element (no near-one shortcut): for blocks where many P/Q are
// far from 1. Requires constants.normalised.
SecondPassSums second_pass_block_fast_log(const double* golden, const double* actual, std::size_t count,
                                          const SecondPassConstants& constants);
// The same with std::log (scalar), for a side that is constant or spans more than the double range.
SecondPassSums second_pass_block_exact_log(const double* golden, const double* actual, std::size_t count,
                                           const SecondPassConstants& constants);

}  // namespace asc::validator
