#include "msit_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "element_errors.hpp"

namespace asc::validator {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double cosine_similarity(const TensorStatistics& s, bool scalar) {
  if (scalar) return 1.0;
  const double actual_norm = std::sqrt(s.actual_squares()), golden_norm = std::sqrt(s.golden_squares());
  if (actual_norm <= kMsitEpsilon && golden_norm < kMsitEpsilon) return 1.0;
  if (std::sqrt(actual_norm) <= kMsitEpsilon || std::sqrt(golden_norm) <= kMsitEpsilon)
    return kNaN;  // one side all zero
  return std::min(s.cross() / (actual_norm * golden_norm), 1.0);
}

double kl_divergence(const SecondPassSums& s) {
  // sum p log(p/q) with p = P/sum(P), q = Q/sum(Q), rearranged so that P and Q need one pass.
  const double kl = s.kl_p_log_ratio / s.kl_p_sum + std::log(s.kl_q_sum / s.kl_p_sum);
  return std::fabs(kl) < kMsitEpsilon ? 0.0 : kl;
}

}  // namespace

MsitMetrics compute_metrics(const TensorStatistics& stats, bool scalar) {
  MsitMetrics m;
  if (stats.finite_pairs == 0) {
    for (double* value :
         {&m.cosine_similarity, &m.max_absolute_error, &m.accumulated_relative_error,
          &m.relative_euclidean_distance, &m.kullback_leibler_divergence, &m.mean_absolute_error,
          &m.root_mean_square_error, &m.max_relative_error, &m.mean_relative_error, &m.actual_mean,
          &m.actual_std, &m.golden_mean, &m.golden_std})
      *value = kNaN;
    return m;
  }
  const FirstPassSums& f = stats.first;
  const SecondPassSums& s = stats.second;
  const auto n = static_cast<double>(stats.finite_pairs);
  m.cosine_similarity = cosine_similarity(stats, scalar);
  m.max_absolute_error = f.abs_error_max;
  m.accumulated_relative_error = f.accumulated_rel_error;
  m.relative_euclidean_distance = std::sqrt(stats.golden_squares()) <= kMsitEpsilon
                                      ? 0.0
                                      : std::sqrt(stats.squared_error_sum() / stats.golden_squares());
  m.kullback_leibler_divergence = kl_divergence(s);
  m.mean_absolute_error = f.abs_error_sum / n;
  m.root_mean_square_error = std::sqrt(stats.squared_error_sum() / n);
  m.max_relative_error = f.rel_error_max;
  m.mean_relative_error = f.rel_error_sum / n;
  m.actual_mean = f.actual_sum / n;
  m.golden_mean = f.golden_sum / n;
  m.actual_std = std::sqrt(s.centered_actual_squares / n);
  m.golden_std = std::sqrt(s.centered_golden_squares / n);
  return m;
}

std::string standard_deviation_text(const MsitMetrics& m) {
  auto shown = [](double v) { return std::fabs(v) < 0.001 ? 0.0 : v; };
  char text[160];
  std::snprintf(text, sizeof text, "(%.3f;%.3f),(%.3f;%.3f)", shown(m.actual_mean), shown(m.actual_std),
                shown(m.golden_mean), shown(m.golden_std));
  return text;
}

std::vector<std::pair<std::string, double>> named_metrics(const MsitMetrics& m) {
  return {{"CosineSimilarity", m.cosine_similarity},
          {"MaxAbsoluteError", m.max_absolute_error},
          {"AccumulatedRelativeError", m.accumulated_relative_error},
          {"RelativeEuclideanDistance", m.relative_euclidean_distance},
          {"KullbackLeiblerDivergence", m.kullback_leibler_divergence},
          {"MeanAbsoluteError", m.mean_absolute_error},
          {"RootMeanSquareError", m.root_mean_square_error},
          {"MaxRelativeError", m.max_relative_error},
          {"MeanRelativeError", m.mean_relative_error}};
}

const std::vector<std::string>& msit_metric_columns() {
  static const std::vector<std::string> columns{"CosineSimilarity",          "MaxAbsoluteError",
                                                "AccumulatedRelativeError",  "RelativeEuclideanDistance",
                                                "KullbackLeiblerDivergence", "StandardDeviation",
                                                "MeanAbsoluteError",         "RootMeanSquareError",
                                                "MaxRelativeError",          "MeanRelativeError"};
  return columns;
}

}  // namespace asc::validator
