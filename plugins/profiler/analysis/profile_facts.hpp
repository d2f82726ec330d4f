// The numbers modelTrade's rules and reports work from, computed once from a profile.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/memory_copy.hpp"

namespace asc::profiler {

struct AnalysisOptions {
  double ddr_peak_bandwidth_gbps = 0;  // the device's peak DDR bandwidth; 0 = unknown
};

struct TaskFacts {
  const ProfileEvent* event = nullptr;  // points into the analysed trace
  double start_us = 0;                  // relative to Timeline::origin_us
  MemoryCopy memory_copy;
  std::string category;  // op_categories.hpp
  std::size_t lane = 0;  // index into Timeline::lanes
};

// All executions of one operator (an op name), summed.
struct OperatorFacts {
  std::string op_name, op_type;
  double device_us = 0, memory_copy_us = 0;
  std::size_t executions = 0;
  const ProfileEvent* first = nullptr;
};

struct TypeFacts {
  std::string op_type;
  std::size_t count = 0;  // tasks
  double total_us = 0, mean_us = 0, max_us = 0, min_us = 0, ratio = 0;
};

struct PipeUtilization {
  std::vector<std::pair<std::string, std::optional<double>>> pipes;  // pipe_names() order
  double coverage = 0;  // fraction of total_time spent in tasks that carry PMU pipe data
  std::optional<double> ratio(std::string_view pipe) const;
};

struct Lane {
  std::string name;  // "Stream 0 / AI Core"
  int stream_id = 0;
  std::string core;
};

struct Timeline {
  double origin_us = 0;  // absolute start of the earliest task
  double span_us = 0;    // earliest start to latest end
  bool measured = true;  // false: the data has no start times and tasks were laid end to end
  std::vector<Lane> lanes;
};

struct HealthCheck {
  std::string metric;        // "ai_core_utilization", ...
  std::string healthy_when;  // "> 0.8"
  std::string unit;
  std::optional<double> value;
  std::string status;  // "healthy", "unhealthy", "not measured"
  std::string basis;   // how the value was measured, or why it was not
};

struct ProfileFacts {
  std::string model_name, soc_version;
  std::vector<TaskFacts> tasks;          // by start time
  std::vector<OperatorFacts> operators;  // by device time, largest first
  std::vector<TypeFacts> types;          // by total time, largest first
  double total_us = 0;                   // sum of task durations
  double memory_copy_us = 0;
  double compute_time_ratio = 1;  // (total - memory copy) / total; 1 for an empty profile
  std::map<std::string, std::size_t> memory_copy_basis;  // tasks per MemoryCopy::basis
  PipeUtilization pipes;
  Timeline timeline;
  std::vector<HealthCheck> health;
  AnalysisOptions options;
};

// `trace` must outlive the result (tasks point into it).
ProfileFacts summarise(const ProfileTrace& trace, const AnalysisOptions& options);

}  // namespace asc::profiler
