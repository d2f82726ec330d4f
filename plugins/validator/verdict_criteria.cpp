#include "verdict_criteria.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "text_format.hpp"

namespace asc::validator {

double machine_epsilon(DType dtype) {
  switch (dtype) {
    case DType::Float16:
      return std::ldexp(1.0, -10);
    case DType::BFloat16:
      return std::ldexp(1.0, -7);
    case DType::Float64:
      return std::numeric_limits<double>::epsilon();
    default:
      return std::numeric_limits<float>::epsilon();
  }
}

DType lower_precision(DType a, DType b) { return machine_epsilon(a) >= machine_epsilon(b) ? a : b; }

VerdictCriteria network_criteria(DType precision, bool nonfinite_in_error_rate) {
  VerdictCriteria criteria;
  criteria.kind = CriteriaKind::Network;
  criteria.nonfinite_in_error_rate = nonfinite_in_error_rate;
  criteria.precision = is_floating(precision) ? precision : DType::Float32;
  criteria.relative_distance_maximum =
      std::min(kMsitRelativeDistanceMaximum, kEpsilonsOfTolerance * machine_epsilon(criteria.precision));
  return criteria;
}

const char* kind_name(CriteriaKind kind) { return kind == CriteriaKind::Network ? "network" : "elements"; }

std::string describe(const VerdictCriteria& criteria) {
  if (criteria.kind == CriteriaKind::Elements) return "elements";
  return std::string("network (") + std::string(dtype_name(criteria.precision)) +
         ": CosineSimilarity >= " + format_number(criteria.cosine_minimum) +
         ", RelativeEuclideanDistance <= " + format_number(criteria.relative_distance_maximum) + ")";
}

}  // namespace asc::validator
