// Seed: "若MTE利用率持续高于50%而Cube利用率低于30%，说明模型受内存带宽严重限制". Judged on the
// time-weighted pipe utilisation of the whole profile; MTE is the busiest of MTE1/MTE2/MTE3.
#include <algorithm>

#include "analysis/pmu_metrics.hpp"
#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

constexpr double kMinMte = 0.5;
constexpr double kMaxCube = 0.3;
constexpr std::size_t kMemoryBoundPipesListed = 5;

std::vector<Advice> check_memory_bound_pipes(const ProfileFacts& facts) {
  const auto mac = facts.pipes.ratio("mac");
  std::optional<double> mte;
  std::string mte_pipe;
  for (const char* pipe : {"mte1", "mte2", "mte3"})
    if (const auto ratio = facts.pipes.ratio(pipe); ratio && (!mte || *ratio > *mte)) {
      mte = ratio;
      mte_pipe = pipe;
    }
  if (!mac || !mte || *mte <= kMinMte || *mac >= kMaxCube) return {};
  std::string list;
  std::size_t listed = 0;
  for (const OperatorFacts& op : facts.operators) {
    const auto op_mte =
        std::max({pipe_ratio(*op.first, "mte1").value_or(0), pipe_ratio(*op.first, "mte2").value_or(0),
                  pipe_ratio(*op.first, "mte3").value_or(0)});
    const auto op_mac = pipe_ratio(*op.first, "mac").value_or(0);
    if (op_mte <= kMinMte || op_mac >= kMaxCube || listed++ >= kMemoryBoundPipesListed) continue;
    list += (list.empty() ? "" : ", ") + operator_label(op.op_name, op.op_type) + " MTE " +
            format_fixed(op_mte, 2) + " / mac " + format_fixed(op_mac, 2) + " " + format_us(op.device_us);
  }
  return {{"memory_bound_pipes", "critical",
           "MTE utilisation is " + format_fixed(*mte, 2) + " (" + mte_pipe + ", above " +
               format_fixed(kMinMte, 1) + ") while Cube (mac) utilisation is " + format_fixed(*mac, 2) +
               " (below " + format_fixed(kMaxCube, 1) + "), time-weighted over the " +
               format_percent(facts.pipes.coverage) +
               " of device time that has PMU data: the model is severely memory-bandwidth bound, and more AI "
               "Cores or "
               "NPUs will not make it faster. Reduce the parameter count, use a smaller model structure, or "
               "quantise "
               "to INT8 to cut memory traffic." +
               (list.empty() ? std::string() : " Most affected operators: " + list)}};
}

}  // namespace

Rule memory_bound_pipes_rule() {
  return {"memory_bound_pipes",
          "the busiest MTE pipe's utilisation is above 0.5 while the Cube (mac) utilisation is below 0.3 "
          "(PipeUtilization PMU data needed)",
          {{"min_mte_ratio", kMinMte, "MTE utilisation above which data movement dominates"},
           {"max_mac_ratio", kMaxCube, "Cube utilisation below which the compute units starve"}},
          check_memory_bound_pipes};
}

}  // namespace asc::profiler
