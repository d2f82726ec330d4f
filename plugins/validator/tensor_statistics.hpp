// Everything the metrics and the diagnosis need from a golden/actual pair, gathered in two
// parallel passes: sums and extremes, NaN/Inf positions, failing elements and where they lie,
// the worst elements, and the error histogram.
#pragma once

#include <array>
#include <asc/sdk/tensor.hpp>
#include <asc/sdk/validator.hpp>
#include <cstdint>
#include <optional>
#include <vector>

#include "block_kernels.hpp"

namespace asc::validator {

// How a flat index maps to (channel, row, column) for a 4-D tensor; disabled for other ranks.
struct ChannelLayout {
  bool enabled = false;
  bool channels_last = false;  // NHWC instead of NCHW
  std::int64_t channels = 0, rows = 0, cols = 0;
  static ChannelLayout of(const TensorView& view);
};

struct ElementSample {
  std::int64_t index = 0;
  double golden = 0, actual = 0, abs_error = 0, rel_error = 0;
};

struct NonFiniteCounts {
  static constexpr std::size_t kFirstPositions = 5;
  std::int64_t nan = 0, pos_inf = 0, neg_inf = 0;
  std::vector<std::int64_t> first_nan, first_inf;  // smallest flat indices, up to kFirstPositions
  std::int64_t inf() const { return pos_inf + neg_inf; }
};

// Counts of errors by binary order of magnitude: bin e holds errors in [2^(e-1023), 2^(e-1022))
// (the double's biased exponent); bin 0 holds exact zeros (and subnormal errors).
using OctaveHistogram = std::array<std::int64_t, 2048>;

struct TensorStatistics {
  std::int64_t elements = 0;
  std::int64_t finite_pairs = 0;  // elements where both sides are finite; the metrics cover these
  FirstPassSums first;            // over finite pairs
  SecondPassSums second;          // over finite pairs
  std::int64_t failing = 0;       // tolerance failures plus non-finite mismatches
  std::int64_t abs_failing = 0, rel_failing = 0;  // finite pairs failing each criterion
  std::int64_t fp16_overflow = 0;                 // finite goldens beyond +-65504 (whatever the actual)
  double largest_fp16_overflow = 0;               // the largest |golden| among them
  // Elements where a NaN (or else an Inf) on either side is not matched by the same on the other.
  std::int64_t nan_mismatches = 0, inf_mismatches = 0;
  std::optional<std::int64_t> first_failing;
  NonFiniteCounts golden_nonfinite, actual_nonfinite;
  std::vector<ElementSample> worst_abs, worst_rel;  // worst first
  std::optional<std::int64_t> first_fp16_overflow;
  // Absolute errors of the finite pairs. (One histogram: a second, of relative errors, would add
  // a tenth to the whole comparison's time.)
  OctaveHistogram abs_histogram{};
  // Failing elements per channel / row / column (empty unless the layout is enabled).
  std::vector<std::int64_t> channel_failures, row_failures, col_failures;

  // Raw second moments over the finite pairs, from the centred ones: sum(x^2) = sum((x-m)^2) + n m^2.
  double squared_error_sum() const;  // sum (a - g)^2
  double actual_squares() const;     // sum a^2
  double golden_squares() const;     // sum g^2
  double cross() const;              // sum a*g
};

inline constexpr std::size_t kWorstElements = 10;

// golden and actual must have the same element count (checked by the caller).
TensorStatistics gather_statistics(const TensorView& golden, const TensorView& actual,
                                   const ComparisonOptions& options, const ChannelLayout& layout);

}  // namespace asc::validator
