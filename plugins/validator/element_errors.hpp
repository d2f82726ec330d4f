// The per-element error formulas every part of the validator shares.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace asc::validator {

// The seed's epsilon: RE = |actual - golden| / (|golden| + 1e-12).
inline constexpr double kRelativeErrorEpsilon = 1e-12;
// msaccucmp's ConstManager.FLOAT_EPSILON (np.finfo(float).eps): AccumulatedRelativeError skips
// goldens at or below it, and tiny CosineSimilarity / RelativeEuclideanDistance / KL results snap
// to their limits with it.
inline constexpr double kMsitEpsilon = std::numeric_limits<double>::epsilon();
// msaccucmp's KL floor (np.finfo(np.float32).eps) for the min-max normalised values.
inline constexpr double kKlFloor = std::numeric_limits<float>::epsilon();
// Largest finite float16: goldens beyond it overflow to Inf in an fp16 pipeline.
inline constexpr double kFloat16Max = 65504.0;

inline double relative_error(double abs_error, double golden) {
  return abs_error / (std::fabs(golden) + kRelativeErrorEpsilon);
}

// msaccucmp's min-max normalised value for the KL divergence (P for actual, Q for golden).
inline double kl_value(double x, double offset, double scale) {
  return std::max((x - offset) * scale, kKlFloor);
}

// The seed's rule: an element fails when either error exceeds its tolerance. `|`, not `||`: a
// short-circuit is a branch, which keeps the element loops from vectorising.
inline bool exceeds_tolerance(double abs_error, double rel_error, double abs_tolerance,
                              double rel_tolerance) {
  return (abs_error > abs_tolerance) | (rel_error > rel_tolerance);
}

}  // namespace asc::validator
