#include "analysis/model_trade_profiler.hpp"

#include "analysis/report_json.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {

std::string ModelTradeProfiler::description() const {
  return "modelTrade: operator time ranking, memory copy vs compute, pipe utilisation, msprof health table "
         "and "
         "optimisation advice";
}

ProfileAnalysis ModelTradeProfiler::analyse(const ProfileTrace& trace) const {
  return analyse(trace, nullptr);
}

ProfileAnalysis ModelTradeProfiler::analyse(const ProfileTrace& trace,
                                            const nlohmann::ordered_json& source) const {
  const ProfileFacts facts = summarise(trace, options_);
  std::vector<RuleOutcome> outcomes;
  ProfileAnalysis analysis;
  for (const Rule& rule : rule_catalog()) {
    outcomes.push_back({&rule, rule.check(facts)});
    analysis.advice.insert(analysis.advice.end(), outcomes.back().advice.begin(),
                           outcomes.back().advice.end());
  }
  analysis.json_report = build_report(facts, outcomes, source).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  return analysis;
}

}  // namespace asc::profiler
