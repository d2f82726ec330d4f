// The comparison metrics, named and defined as msaccucmp (msit compare's back end) defines
// them, except that MeanRelativeError and MaxRelativeError use the seed's relative error
// |a - g| / (|g| + 1e-12). docs/op_validate.md gives every formula.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tensor_statistics.hpp"

namespace asc::validator {

struct MsitMetrics {
  double cosine_similarity = 0;
  double max_absolute_error = 0;
  double accumulated_relative_error = 0;
  double relative_euclidean_distance = 0;
  double kullback_leibler_divergence = 0;
  double mean_absolute_error = 0;
  double root_mean_square_error = 0;
  double max_relative_error = 0;
  double mean_relative_error = 0;
  // StandardDeviation: msaccucmp reports mean and population standard deviation of both sides.
  double actual_mean = 0, actual_std = 0, golden_mean = 0, golden_std = 0;
};

// Over the finite pairs; every metric is NaN when there are none. `scalar`: a rank-0 tensor,
// whose CosineSimilarity msaccucmp defines as 1.
MsitMetrics compute_metrics(const TensorStatistics& stats, bool scalar);

// msaccucmp's StandardDeviation cell, "(mean;std),(mean;std)" for actual then golden, %.3f,
// with magnitudes below 0.001 shown as 0.
std::string standard_deviation_text(const MsitMetrics& metrics);

// The numeric metrics in msaccucmp's column order (StandardDeviation, being text, left out).
std::vector<std::pair<std::string, double>> named_metrics(const MsitMetrics& metrics);

// msaccucmp's column order including "StandardDeviation".
const std::vector<std::string>& msit_metric_columns();

}  // namespace asc::validator
