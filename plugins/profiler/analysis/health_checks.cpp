#include "analysis/health_checks.hpp"

#include <algorithm>
#include <map>

#include "analysis/pmu_metrics.hpp"
#include "analysis/text_format.hpp"

namespace asc::profiler {
namespace {

HealthCheck not_measured(std::string metric, std::string healthy_when, std::string unit, std::string why) {
  return {std::move(metric), std::move(healthy_when), std::move(unit),
          std::nullopt,      "not measured",          std::move(why)};
}

HealthCheck judged(std::string metric, std::string healthy_when, std::string unit, double value, bool healthy,
                   std::string basis) {
  return {
      std::move(metric), std::move(healthy_when), std::move(unit), value, healthy ? "healthy" : "unhealthy",
      std::move(basis)};
}

// Time-weighted mean of a per-task value over the tasks that have it; nullopt when none has it.
template <class Value>
std::optional<double> weighted_mean(const ProfileFacts& facts, Value value_of) {
  double weighted = 0, weight = 0;
  for (const TaskFacts& task : facts.tasks) {
    const std::optional<double> value = value_of(*task.event);
    if (!value) continue;
    weighted += *value * task.event->duration_us;
    weight += task.event->duration_us;
  }
  if (weight <= 0) return std::nullopt;
  return weighted / weight;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

bool on_ai_core(const TaskFacts& task, const ProfileFacts& facts) {
  const std::string& core = facts.timeline.lanes[task.lane].core;
  return core == "AI Core" || core == "AI Vector Core";
}

HealthCheck ai_core_utilization(const ProfileFacts& facts) {
  const std::string metric = "ai_core_utilization", when = "> " + format_fixed(kAiCoreUtilizationMin, 2),
                    unit = "fraction";
  if (facts.timeline.measured && facts.timeline.span_us > 0) {
    // Union of the AI Core tasks' intervals: overlapping tasks on several streams count once.
    std::vector<std::pair<double, double>> intervals;
    for (const TaskFacts& task : facts.tasks)
      if (on_ai_core(task, facts))
        intervals.emplace_back(task.start_us, task.start_us + task.event->duration_us);
    if (!intervals.empty()) {
      std::sort(intervals.begin(), intervals.end());
      double busy = 0, open = intervals.front().first, close = intervals.front().second;
      for (const auto& [start, end] : intervals) {
        if (start > close) {
          busy += close - open;
          open = start;
        }
        close = std::max(close, end);
      }
      busy += close - open;
      const double value = busy / facts.timeline.span_us;
      return judged(metric, when, unit, value, value > kAiCoreUtilizationMin,
                    "time with an AI Core / AI Vector Core task running (" + format_us(busy) +
                        ") over the profile's span (" + format_us(facts.timeline.span_us) + ")");
    }
  }
  const auto cube =
      weighted_mean(facts, [](const ProfileEvent& e) { return largest_metric(e, "cube_utilization(%)"); });
  if (cube) {
    const double value = *cube / 100.0;
    return judged(metric, when, unit, value, value > kAiCoreUtilizationMin,
                  "cube_utilization(%) column, time-weighted over tasks");
  }
  return not_measured(
      metric, when, unit,
      "needs task start times (to measure busy time) or a cube_utilization(%) column, and the data "
      "has neither");
}

HealthCheck ddr_bandwidth_utilization(const ProfileFacts& facts) {
  const std::string metric = "ddr_bandwidth_utilization",
                    when = "< " + format_fixed(kDdrBandwidthUtilizationMax, 2), unit = "fraction";
  const auto bandwidth = weighted_mean(facts, [](const ProfileEvent& e) -> std::optional<double> {
    const auto read = summed_metric(e, "main_mem_read_bw(GB/s)");
    const auto write = summed_metric(e, "main_mem_write_bw(GB/s)");
    if (!read && !write) return std::nullopt;
    return read.value_or(0) + write.value_or(0);
  });
  if (!bandwidth)
    return not_measured(
        metric, when, unit,
        "needs main_mem_read_bw(GB/s) / main_mem_write_bw(GB/s) columns (msprof --aic-metrics=Memory)");
  if (facts.options.ddr_peak_bandwidth_gbps <= 0)
    return not_measured(metric, when, unit,
                        "mean main-memory bandwidth is " + format_fixed(*bandwidth, 2) +
                            " GB/s; give the device's peak (ddr_peak_bandwidth, GB/s) to judge utilisation");
  const double value = *bandwidth / facts.options.ddr_peak_bandwidth_gbps;
  return judged(metric, when, unit, value, value < kDdrBandwidthUtilizationMax,
                "time-weighted mean main-memory read+write bandwidth " + format_fixed(*bandwidth, 2) +
                    " GB/s over the peak " + format_fixed(facts.options.ddr_peak_bandwidth_gbps, 2) +
                    " GB/s");
}

HealthCheck ub_hit_rate(const ProfileFacts& facts) {
  const std::string metric = "ub_hit_rate", when = "> " + format_fixed(kUbHitRateMin, 2), unit = "fraction";
  const auto rate =
      weighted_mean(facts, [](const ProfileEvent& e) { return largest_metric(e, "ub_hit_rate"); });
  if (!rate)
    return not_measured(
        metric, when, unit,
        "msprof has no UB hit-rate counter; measured only when the data has a ub_hit_rate column");
  return judged(metric, when, unit, *rate, *rate > kUbHitRateMin,
                "ub_hit_rate column, time-weighted over tasks");
}

HealthCheck kernel_launch_interval(const ProfileFacts& facts) {
  const std::string metric = "kernel_launch_interval",
                    when = "< " + format_fixed(kLaunchIntervalMaxUs, 0) + " us", unit = "us";
  std::vector<double> gaps;
  std::string basis;
  if (facts.timeline.measured) {
    std::map<int, double> stream_end;
    std::map<int, bool> seen;
    for (const TaskFacts& task : facts.tasks) {
      const int stream = task.event->stream_id;
      if (seen[stream]) gaps.push_back(std::max(0.0, task.start_us - stream_end[stream]));
      seen[stream] = true;
      stream_end[stream] = std::max(stream_end[stream], task.start_us + task.event->duration_us);
    }
    basis = "median gap between the end of a task and the start of the next on the same stream";
  } else {
    bool any_wait = false;
    for (const TaskFacts& task : facts.tasks) any_wait = any_wait || task.event->wait_us > 0;
    if (any_wait)
      for (const TaskFacts& task : facts.tasks) gaps.push_back(task.event->wait_us);
    basis = "median Task Wait Time(us)";
  }
  if (gaps.empty())
    return not_measured(metric, when, unit,
                        "needs task start times or Task Wait Time(us), and at least two tasks");
  const double value = median(gaps);
  return judged(metric, when, unit, value, value < kLaunchIntervalMaxUs,
                basis + " (" + std::to_string(gaps.size()) + " gaps, largest " +
                    format_us(*std::max_element(gaps.begin(), gaps.end())) + ")");
}

}  // namespace

std::vector<HealthCheck> health_checks(const ProfileFacts& facts) {
  return {ai_core_utilization(facts), ddr_bandwidth_utilization(facts), ub_hit_rate(facts),
          kernel_launch_interval(facts)};
}

}  // namespace asc::profiler
