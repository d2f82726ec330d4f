// Seed: "将ratio值从高到低排列，前5个算子的耗时之和通常占模型总耗时的70%以上" — when a handful of
// operators dominate, they are where optimisation pays.
#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr std::size_t kTopCount = 5;
constexpr double kConcentration = 0.7;

std::vector<Advice> check_top_operators(const ProfileFacts& facts) {
  if (facts.operators.size() <= kTopCount || facts.total_us <= 0) return {};
  double top_us = 0;
  std::string list;
  for (std::size_t i = 0; i < kTopCount; ++i) {
    const OperatorFacts& op = facts.operators[i];
    top_us += op.device_us;
    list += (i ? ", " : "") + operator_label(op.op_name, op.op_type) + " " +
            format_percent(op.device_us / facts.total_us);
  }
  const double share = top_us / facts.total_us;
  if (share < kConcentration) return {};
  return {
      {"top_operators", "info",
       "the top " + std::to_string(kTopCount) + " of " + std::to_string(facts.operators.size()) +
           " operators take " + format_percent(share) + " of device time (" + format_us(top_us) + " of " +
           format_us(facts.total_us) + "): " + list +
           ". Optimise these first: a larger batch size to fill the compute units, operator fusion to cut "
           "kernel launches, or ATC --op_select_implmode=high_performance"}};
}

}  // namespace

Rule top_operators_rule() {
  return {
      "top_operators",
      "the 5 operators with the most device time take at least 70% of it (models with more than 5 operators)",
      {{"top_count", static_cast<double>(kTopCount), "operators considered"},
       {"min_share", kConcentration, "their combined share of total_time that makes them the target"}},
      check_top_operators};
}

}  // namespace asc::profiler
