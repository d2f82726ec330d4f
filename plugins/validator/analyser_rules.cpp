#include "analyser_rules.hpp"

#include "text_format.hpp"

namespace asc::validator {

double AnalyserRule::value_of(const MsitMetrics& metrics) const {
  for (const auto& [name, value] : named_metrics(metrics))
    if (name == metric) return value;
  return 0;
}

bool AnalyserRule::violated_by(const MsitMetrics& metrics) const {
  const double value = value_of(metrics);
  return below ? value < threshold : value > threshold;
}

std::string AnalyserRule::describe() const {
  return metric + (below ? " < " : " > ") + format_number(threshold);
}

const std::vector<AnalyserRule>& analyser_rules() {
  static const std::vector<AnalyserRule> rules{
      {"CosineSimilarity", 0.99, true},
      {"RelativeEuclideanDistance", 0.05, false},
      {"KullbackLeiblerDivergence", 0.005, false},
      {"RootMeanSquareError", 1.0, false},
      {"MeanRelativeError", 1.0, false},
  };
  return rules;
}

}  // namespace asc::validator
