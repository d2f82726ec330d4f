// Seed 2's msprof health table. The checks themselves are in analysis/health_checks.cpp (the
// report shows all four, measured or not); this rule turns each unhealthy one into advice.
#include "analysis/health_checks.hpp"
#include "analysis/text_format.hpp"
#include "rules/rule.hpp"

namespace asc::profiler {
namespace {

std::string remedy(const std::string& metric) {
  if (metric == "ai_core_utilization")
    return "the AI Cores sit idle between tasks: fuse small operators (fewer, larger kernels), run inference "
           "asynchronously so the host prepares the next batch meanwhile (aclmdlExecuteAsync), and raise the "
           "batch size";
  if (metric == "ddr_bandwidth_utilization")
    return "the model hits the memory wall: keep data in UB (fusion, tiling with double buffering) and cut "
           "traffic "
           "with FP16/INT8";
  if (metric == "ub_hit_rate")
    return "tiles spill out of the Unified Buffer: choose tilings that fit UB and reuse data on chip";
  return "scheduling overhead dominates: fuse operators to launch fewer kernels and run inference "
         "asynchronously";
}

std::string value_text(const HealthCheck& check) {
  return check.unit == "fraction" ? format_percent(*check.value) : format_us(*check.value);
}

std::vector<Advice> check_health_table(const ProfileFacts& facts) {
  std::vector<Advice> advice;
  for (const HealthCheck& check : facts.health)
    if (check.status == "unhealthy")
      advice.push_back({"health_table", "warning",
                        check.metric + " is " + value_text(check) + ", healthy " + check.healthy_when + " (" +
                            check.basis + "): " + remedy(check.metric)});
  return advice;
}

}  // namespace

Rule health_table_rule() {
  return {
      "health_table",
      "msprof health table: AI Core utilisation > 0.8, DDR bandwidth utilisation < 0.9, UB hit rate > 0.95, "
      "kernel launch interval < 100 us; fires for each measured metric outside its healthy range",
      {{"ai_core_utilization_min", kAiCoreUtilizationMin, "healthy above"},
       {"ddr_bandwidth_utilization_max", kDdrBandwidthUtilizationMax, "healthy below"},
       {"ub_hit_rate_min", kUbHitRateMin, "healthy above"},
       {"kernel_launch_interval_max_us", kLaunchIntervalMaxUs, "healthy below (0.1 ms)"}},
      check_health_table};
}

}  // namespace asc::profiler
