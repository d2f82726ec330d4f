// AI Core PMU values of a task, whatever the msprof generation called them: split-core products
// (Atlas A2/A3) prefix `aic_` (cube core) or `aiv_` (vector core), older and non-split products
// (310P, 910) use no prefix, and PipelineExecuteUtilization spells `<pipe>_exe_ratio`.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace asc::profiler {

// The pipes of msprof's PipeUtilization group, in report order.
const std::vector<std::string_view>& pipe_names();  // mac, vec, scalar, mte1, mte2, mte3, fixpipe

// Busy fraction of `pipe` over the task: the largest of the aic_/aiv_/unprefixed ratios present
// (a MIX task has one per core type; the pipe is busy when either is).
std::optional<double> pipe_ratio(const ProfileEvent& event, std::string_view pipe);
// Busy time of `pipe` in microseconds, chosen the same way.
std::optional<double> pipe_time_us(const ProfileEvent& event, std::string_view pipe);

// Sum over the aic_/aiv_/unprefixed spellings of `<name>` (for bandwidths, which add up across
// core types); nullopt when none is present.
std::optional<double> summed_metric(const ProfileEvent& event, std::string_view name);
// Largest over the spellings of `<name>`.
std::optional<double> largest_metric(const ProfileEvent& event, std::string_view name);

// True when any PMU column (a pipe ratio or time) is present.
bool has_pipe_data(const ProfileEvent& event);

}  // namespace asc::profiler
