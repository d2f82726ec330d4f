#include "tensor_comparison.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <cmath>
#include <limits>

#include "diagnosis.hpp"
#include "element_errors.hpp"
#include "tolerance_search.hpp"

namespace asc::validator {
namespace {

void check_options(const ComparisonOptions& options) {
  auto require = [](bool ok, const std::string& what) {
    if (!ok) throw Error(ErrorCode::ConfigBadValue, what);
  };
  require(options.abs_tolerance >= 0,
          "abs_tolerance must be >= 0, got " + std::to_string(options.abs_tolerance));
  require(options.rel_tolerance >= 0,
          "rel_tolerance must be >= 0, got " + std::to_string(options.rel_tolerance));
  require(options.error_rate_threshold >= 0 && options.error_rate_threshold <= 1,
          "error_rate_threshold must be within [0, 1], got " + std::to_string(options.error_rate_threshold));
}

Shape without_unit_dims(const Shape& shape) {
  Shape kept;
  std::copy_if(shape.begin(), shape.end(), std::back_inserter(kept), [](std::int64_t d) { return d != 1; });
  return kept;
}

enum class ValueKind { Floating, Integer, Boolean };

ValueKind kind_of(DType dtype) {
  if (is_floating(dtype)) return ValueKind::Floating;
  return dtype == DType::Bool ? ValueKind::Boolean : ValueKind::Integer;
}

void check_comparable(const TensorView& golden, const TensorView& actual) {
  const std::string sides = "golden " + std::string(dtype_name(golden.dtype())) +
                            shape_to_string(golden.shape()) + " vs actual " +
                            std::string(dtype_name(actual.dtype())) + shape_to_string(actual.shape());
  if (golden.numel() != actual.numel())
    throw Error(ErrorCode::ValidationShapeMismatch, "element counts differ (" +
                                                        std::to_string(golden.numel()) + " vs " +
                                                        std::to_string(actual.numel()) + "): " + sides);
  if (golden.shape() != actual.shape() &&
      without_unit_dims(golden.shape()) != without_unit_dims(actual.shape()))
    throw Error(ErrorCode::ValidationShapeMismatch,
                "shapes differ beyond dimensions of 1 (a layout change such as NCHW vs NHWC must be undone "
                "first): " +
                    sides);
  if (kind_of(golden.dtype()) != kind_of(actual.dtype()))
    throw Error(ErrorCode::ValidationDtypeMismatch,
                "cannot compare " +
                    std::string(is_floating(golden.dtype()) ? "floating-point" : "integer/bool") +
                    " values with " + (is_floating(actual.dtype()) ? "floating-point" : "integer/bool") +
                    " ones: " + sides);
}

void find_min_tolerances(TensorComparison& c, const TensorView& golden, const TensorView& actual) {
  const TensorStatistics& s = c.stats;
  const std::int64_t allowed_finite = c.allowed_failures - c.nonfinite_mismatches();
  if (allowed_finite < 0 || c.nonfinite_fails()) {
    c.min_abs_tolerance = c.min_rel_tolerance = std::numeric_limits<double>::infinity();
  } else if (s.finite_pairs == 0) {
    c.min_abs_tolerance = c.min_rel_tolerance = 0;
  } else if (allowed_finite == 0) {
    c.min_abs_tolerance = s.first.abs_error_max;
    c.min_rel_tolerance = s.first.rel_error_max;
  } else {
    c.min_abs_tolerance =
        smallest_passing_tolerance(golden, actual, ErrorKind::Absolute, allowed_finite, s.finite_pairs);
    c.min_rel_tolerance =
        smallest_passing_tolerance(golden, actual, ErrorKind::Relative, allowed_finite, s.finite_pairs);
  }
}

bool passes(const TensorComparison& c) {
  if (c.nonfinite_fails()) return false;
  if (c.criteria.kind == CriteriaKind::Elements) return c.stats.failing <= c.allowed_failures;
  return !c.cosine_fails() && !c.relative_distance_fails();
}

}  // namespace

bool TensorComparison::cosine_fails() const {
  // NaN (one side all zero) is left to the relative distance, which sees that case.
  return criteria.kind == CriteriaKind::Network && metrics.cosine_similarity < criteria.cosine_minimum;
}

bool TensorComparison::relative_distance_fails() const {
  if (criteria.kind != CriteriaKind::Network) return false;
  // msaccucmp's RelativeEuclideanDistance is 0 when the golden's norm is at most eps; an actual
  // that is not near zero too is then as wrong as it can be.
  const bool golden_zero = !(std::sqrt(stats.golden_squares()) > kMsitEpsilon);
  if (golden_zero) return std::sqrt(stats.actual_squares()) > kMsitEpsilon;
  return !(metrics.relative_euclidean_distance <= criteria.relative_distance_maximum);
}

std::string TensorComparison::coordinates(std::int64_t index) const {
  Shape position(golden_shape.size(), 0);
  for (std::size_t d = golden_shape.size(); d-- > 0;) {
    position[d] = index % golden_shape[d];
    index /= golden_shape[d];
  }
  return shape_to_string(position);
}

ComparisonResult TensorComparison::to_result() const {
  ComparisonResult result;
  result.passed = passed;
  for (const auto& [name, value] : named_metrics(metrics)) result.metrics[name] = value;
  result.metrics["ActualMean"] = metrics.actual_mean;
  result.metrics["ActualStandardDeviation"] = metrics.actual_std;
  result.metrics["GoldenMean"] = metrics.golden_mean;
  result.metrics["GoldenStandardDeviation"] = metrics.golden_std;
  result.metrics["Elements"] = static_cast<double>(stats.elements);
  result.metrics["FailingElements"] = static_cast<double>(stats.failing);
  result.metrics["ErrorRate"] = error_rate;
  result.metrics["MinAbsTolerance"] = min_abs_tolerance;
  result.metrics["MinRelTolerance"] = min_rel_tolerance;
  result.metrics["FittedScale"] = scale.scale;
  result.metrics["FittedOffset"] = scale.offset;
  result.metrics["PearsonCorrelation"] = scale.pearson;
  result.error_classes = error_classes;
  result.diagnostics = diagnostics;
  return result;
}

TensorComparison compare_tensors(const TensorView& golden, const TensorView& actual,
                                 const ComparisonOptions& options, const VerdictCriteria& criteria) {
  check_options(options);
  check_comparable(golden, actual);
  TensorComparison c;
  c.golden_dtype = golden.dtype();
  c.actual_dtype = actual.dtype();
  c.golden_shape = golden.shape();
  c.actual_shape = actual.shape();
  c.options = options;
  c.criteria = criteria;
  c.stats = gather_statistics(golden, actual, options, ChannelLayout::of(golden));
  c.metrics = compute_metrics(c.stats, golden.rank() == 0);
  const auto n = static_cast<double>(c.stats.elements);
  // The tiny slack keeps e.g. 0.001 * 1000 from rounding below 1.
  c.allowed_failures = static_cast<std::int64_t>(std::floor(options.error_rate_threshold * n * (1 + 1e-12)));
  c.passed = passes(c);
  c.error_rate = c.stats.elements == 0 ? 0.0 : static_cast<double>(c.stats.failing) / n;
  find_min_tolerances(c, golden, actual);
  diagnose(c);
  return c;
}

}  // namespace asc::validator
