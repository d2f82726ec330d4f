// One golden/actual comparison with everything the reports show: metrics, the pass/fail
// verdict, error classes and the diagnosis.
#pragma once

#include <asc/sdk/tensor.hpp>
#include <asc/sdk/validator.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "msit_metrics.hpp"
#include "tensor_statistics.hpp"
#include "verdict_criteria.hpp"

namespace asc::validator {

// Least-squares fit actual ~ scale * golden + offset: the seed's "direction right, magnitude
// off" category shows as a Pearson correlation near 1 with a scale away from 1.
struct ScaleFit {
  double scale = 0, offset = 0, pearson = 0;
  double explained = 0;  // share of the squared error the fit removes
  bool detected = false;
};

// Where along one axis of a 4-D tensor the failing elements lie.
struct Concentration {
  std::string axis;                    // "channel", "row", "column"
  std::vector<std::int64_t> failures;  // per position
  bool concentrated = false;
  std::string summary;  // "83% of failures in channel 5 (of 64)"
};

struct TensorComparison {
  DType golden_dtype = DType::Undefined, actual_dtype = DType::Undefined;
  Shape golden_shape, actual_shape;
  ComparisonOptions options;
  VerdictCriteria criteria;
  TensorStatistics stats;
  MsitMetrics metrics;
  bool passed = false;
  std::int64_t allowed_failures = 0;  // floor(error_rate_threshold * elements)
  double error_rate = 0;              // failing / elements
  // Smallest tolerance that passes with only that criterion checked (Infinity: NaN/Inf
  // mismatches alone already fail). With no failures allowed, both together pass.
  double min_abs_tolerance = 0, min_rel_tolerance = 0;
  ScaleFit scale;
  std::vector<Concentration> concentration;  // channel, row, column (4-D tensors with failures)
  std::vector<std::string> error_classes;
  std::vector<std::string> diagnostics;

  // Elements where a NaN or Inf on one side is not matched on the other.
  std::int64_t nonfinite_mismatches() const { return stats.nan_mismatches + stats.inf_mismatches; }
  // True when those alone fail the comparison (criteria.nonfinite_in_error_rate not set).
  bool nonfinite_fails() const { return nonfinite_mismatches() > 0 && !criteria.nonfinite_in_error_rate; }
  // Network criteria: the cosine, and the relative distance (or, for a golden of norm ~0, an
  // actual that is not), fail.
  bool cosine_fails() const;
  bool relative_distance_fails() const;

  // "[0,5,3,4]" for a flat index (golden's shape).
  std::string coordinates(std::int64_t index) const;
  // The SDK's summary: msit metric names and a few more (see docs/op_validate.md).
  ComparisonResult to_result() const;
};

// Throws EE5007 for a negative tolerance or an error_rate_threshold outside [0, 1], EE7001 when
// the element counts differ or the shapes differ other than by dimensions of 1, EE7002 when one
// side is floating point and the other integer or bool (float16 vs float32 is comparable).
// `criteria` decide the verdict (verdict_criteria.hpp); the element tolerances in `options` are
// counted and diagnosed either way.
TensorComparison compare_tensors(const TensorView& golden, const TensorView& actual,
                                 const ComparisonOptions& options, const VerdictCriteria& criteria = {});

}  // namespace asc::validator
