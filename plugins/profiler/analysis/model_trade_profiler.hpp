// The "model_trade" profiler: the seed's modelTrade analysis (summary, rules, advice) of a
// profile, as a JSON report.
#pragma once

#include <asc/sdk/profiler.hpp>
#include <nlohmann/json.hpp>

#include "analysis/profile_facts.hpp"

namespace asc::profiler {

class ModelTradeProfiler final : public Profiler {
 public:
  explicit ModelTradeProfiler(AnalysisOptions options = {}) : options_(options) {}
  std::string name() const override { return "model_trade"; }
  std::string description() const override;
  ProfileAnalysis analyse(const ProfileTrace& trace) const override;
  // The same, with a "source" section saying where the profile was read from.
  ProfileAnalysis analyse(const ProfileTrace& trace, const nlohmann::ordered_json& source) const;

 private:
  AnalysisOptions options_;
};

}  // namespace asc::profiler
