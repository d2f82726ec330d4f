// msit's analyser rules (msquickcmp net_compare/analyser.py MONITOR_THRESHOLD): a compared
// operator output "may lead to inaccuracy" when one of these metrics crosses its threshold.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "msit_metrics.hpp"

namespace asc::validator {

struct AnalyserRule {
  std::string metric;  // msit's name
  double threshold = 0;
  bool below = false;  // flagged when the value is below the threshold (CosineSimilarity) instead of above
  double value_of(const MsitMetrics& metrics) const;
  // NaN never violates (msit skips NaN rows; NaN outputs are caught by the precision check).
  bool violated_by(const MsitMetrics& metrics) const;
  std::string describe() const;  // "CosineSimilarity < 0.99"
};

const std::vector<AnalyserRule>& analyser_rules();

}  // namespace asc::validator
