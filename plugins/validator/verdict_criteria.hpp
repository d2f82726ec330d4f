// What decides a comparison's verdict. Two sets of criteria:
//
//   Elements (the seed's opValidate, and every single-file comparison): an element fails above
//   abs_tolerance or rel_tolerance; the comparison passes when at most error_rate_threshold of
//   the elements fail.
//
//   Network (the default of whole-network comparisons, docs/op_validate.md "Whole-network
//   criteria"): an operator output passes when its CosineSimilarity is at least msit's 0.99 and
//   its RelativeEuclideanDistance (the norm-wise relative error) is within a tolerance set by the
//   lowest floating-point precision its values went through. Element tolerances are still
//   counted and reported, but near-zero goldens (whose element-wise relative error fp16 cannot
//   keep small) no longer decide the verdict.
//
// In both, a NaN or Inf on one side only (or Infs of opposite sign) fails the comparison however
// few there are, as the seed's own error classes (overflow) rather than tolerance noise, unless
// nonfinite_in_error_rate opts out: then they count as ordinary failing elements (Elements) or
// are left to the other criteria (Network).
#pragma once

#include <asc/sdk/tensor.hpp>
#include <string>

namespace asc::validator {

enum class CriteriaKind { Elements, Network };

// msit's analyser threshold (msquickcmp net_compare/analyser.py MONITOR_THRESHOLD).
inline constexpr double kMsitCosineMinimum = 0.99;
inline constexpr double kMsitRelativeDistanceMaximum = 0.05;
// Network tolerance: this many machine epsilons of the precision, capped at msit's 0.05. Ten
// epsilons reproduce the seed's own figures: fp16 (2^-10) 9.8e-3, the seed's "fp16 relative error
// 1e-3 to 1e-2 is normal"; fp32 (2^-23) 1.2e-6, the seed's "fp32 below 1e-6".
inline constexpr double kEpsilonsOfTolerance = 10;

struct VerdictCriteria {
  CriteriaKind kind = CriteriaKind::Elements;
  bool nonfinite_in_error_rate = false;
  // Network only: the lowest precision the actual values went through (Float32 when unknown).
  DType precision = DType::Float32;
  double cosine_minimum = kMsitCosineMinimum;
  double relative_distance_maximum = kMsitRelativeDistanceMaximum;
};

// Network criteria for values computed at `precision` (Float16, BFloat16, Float32, Float64).
VerdictCriteria network_criteria(DType precision, bool nonfinite_in_error_rate);
// machine epsilon of a floating dtype (Float32's for the others).
double machine_epsilon(DType dtype);
// The lower of two floating precisions (the one with the larger epsilon).
DType lower_precision(DType a, DType b);
// "network (float16: CosineSimilarity >= 0.99, RelativeEuclideanDistance <= 0.00977)"
std::string describe(const VerdictCriteria& criteria);
const char* kind_name(CriteriaKind kind);  // "elements", "network"

}  // namespace asc::validator
