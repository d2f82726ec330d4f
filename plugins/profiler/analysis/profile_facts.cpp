#include "analysis/profile_facts.hpp"

#include <algorithm>
#include <limits>

#include "analysis/health_checks.hpp"
#include "analysis/op_categories.hpp"
#include "analysis/pmu_metrics.hpp"

namespace asc::profiler {
namespace {

int core_order(const std::string& core) {
  static const std::vector<std::string> order{"AI Core", "AI Vector Core", "AI CPU", "Memcpy",
                                              "Communication"};
  const auto it = std::find(order.begin(), order.end(), core);
  return it == order.end() ? static_cast<int>(order.size()) : static_cast<int>(it - order.begin());
}

std::string lane_name(int stream_id, const std::string& core) {
  return (stream_id < 0 ? std::string("Stream N/A") : "Stream " + std::to_string(stream_id)) + " / " + core;
}

// Absolute start of every event: the data's own, or (when every start is 0) end to end per
// stream in trace order, each after its wait time.
std::vector<double> absolute_starts(const ProfileTrace& trace, bool& measured) {
  std::vector<double> starts;
  measured = trace.events.size() < 2 || std::any_of(trace.events.begin(), trace.events.end(),
                                                    [](const ProfileEvent& e) { return e.start_us != 0; });
  std::map<int, double> stream_end;
  for (const ProfileEvent& event : trace.events) {
    if (measured) {
      starts.push_back(event.start_us);
    } else {
      const double start = stream_end[event.stream_id] + std::max(0.0, event.wait_us);
      starts.push_back(start);
      stream_end[event.stream_id] = start + event.duration_us;
    }
  }
  return starts;
}

void build_timeline(const ProfileTrace& trace, ProfileFacts& facts) {
  bool measured = true;
  const std::vector<double> starts = absolute_starts(trace, measured);
  facts.timeline.measured = measured;
  double first = std::numeric_limits<double>::max(), last = std::numeric_limits<double>::lowest();
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    first = std::min(first, starts[i]);
    last = std::max(last, starts[i] + trace.events[i].duration_us);
  }
  facts.timeline.origin_us = trace.events.empty() ? 0 : first;
  facts.timeline.span_us = trace.events.empty() ? 0 : last - first;

  std::vector<std::pair<int, std::string>> keys;
  for (const ProfileEvent& event : trace.events) keys.emplace_back(event.stream_id, lane_core_of(event));
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (core_order(a.second) != core_order(b.second)) return core_order(a.second) < core_order(b.second);
    return a.second < b.second;
  });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (const auto& [stream, core] : keys)
    facts.timeline.lanes.push_back({lane_name(stream, core), stream, core});

  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const ProfileEvent& event = trace.events[i];
    TaskFacts task;
    task.event = &event;
    task.start_us = starts[i] - facts.timeline.origin_us;
    task.memory_copy = memory_copy_of(event);
    task.category = category_of(event);
    const std::pair<int, std::string> key{event.stream_id, lane_core_of(event)};
    task.lane = static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
    facts.tasks.push_back(std::move(task));
  }
  std::stable_sort(facts.tasks.begin(), facts.tasks.end(),
                   [](const TaskFacts& a, const TaskFacts& b) { return a.start_us < b.start_us; });
}

void aggregate_operators_and_types(ProfileFacts& facts) {
  std::map<std::string, std::size_t> operator_index, type_index;
  for (const TaskFacts& task : facts.tasks) {
    const ProfileEvent& event = *task.event;
    facts.total_us += event.duration_us;
    facts.memory_copy_us += task.memory_copy.us;
    ++facts.memory_copy_basis[task.memory_copy.basis];

    auto [op, new_op] = operator_index.try_emplace(event.op_name, facts.operators.size());
    if (new_op) facts.operators.push_back({event.op_name, event.op_type, 0, 0, 0, &event});
    OperatorFacts& operator_facts = facts.operators[op->second];
    operator_facts.device_us += event.duration_us;
    operator_facts.memory_copy_us += task.memory_copy.us;
    ++operator_facts.executions;

    auto [type, new_type] = type_index.try_emplace(event.op_type, facts.types.size());
    if (new_type) facts.types.push_back({event.op_type, 0, 0, 0, event.duration_us, event.duration_us, 0});
    TypeFacts& type_facts = facts.types[type->second];
    ++type_facts.count;
    type_facts.total_us += event.duration_us;
    type_facts.max_us = std::max(type_facts.max_us, event.duration_us);
    type_facts.min_us = std::min(type_facts.min_us, event.duration_us);
  }
  for (TypeFacts& type : facts.types) {
    type.mean_us = type.total_us / static_cast<double>(type.count);
    type.ratio = facts.total_us > 0 ? type.total_us / facts.total_us : 0;
  }
  std::stable_sort(facts.operators.begin(), facts.operators.end(),
                   [](const OperatorFacts& a, const OperatorFacts& b) { return a.device_us > b.device_us; });
  std::stable_sort(facts.types.begin(), facts.types.end(),
                   [](const TypeFacts& a, const TypeFacts& b) { return a.total_us > b.total_us; });
  facts.compute_time_ratio =
      facts.total_us > 0 ? (facts.total_us - facts.memory_copy_us) / facts.total_us : 1.0;
}

// Time-weighted mean of each pipe's busy ratio over the tasks that report it.
PipeUtilization pipe_utilization(const ProfileFacts& facts) {
  PipeUtilization result;
  double covered = 0;
  for (const TaskFacts& task : facts.tasks)
    if (has_pipe_data(*task.event)) covered += task.event->duration_us;
  result.coverage = facts.total_us > 0 ? covered / facts.total_us : 0;
  for (const std::string_view pipe : pipe_names()) {
    double weighted = 0, weight = 0;
    for (const TaskFacts& task : facts.tasks) {
      const ProfileEvent& event = *task.event;
      std::optional<double> ratio = pipe_ratio(event, pipe);
      if (!ratio && event.duration_us > 0)
        if (const auto time = pipe_time_us(event, pipe)) ratio = std::min(1.0, *time / event.duration_us);
      if (!ratio) continue;
      weighted += *ratio * event.duration_us;
      weight += event.duration_us;
    }
    result.pipes.emplace_back(std::string(pipe),
                              weight > 0 ? std::optional<double>(weighted / weight) : std::nullopt);
  }
  return result;
}

}  // namespace

std::optional<double> PipeUtilization::ratio(std::string_view pipe) const {
  for (const auto& [name, value] : pipes)
    if (name == pipe) return value;
  return std::nullopt;
}

ProfileFacts summarise(const ProfileTrace& trace, const AnalysisOptions& options) {
  ProfileFacts facts;
  facts.model_name = trace.model_name;
  facts.soc_version = trace.soc_version;
  facts.options = options;
  build_timeline(trace, facts);
  aggregate_operators_and_types(facts);
  facts.pipes = pipe_utilization(facts);
  facts.health = health_checks(facts);
  return facts;
}

}  // namespace asc::profiler
