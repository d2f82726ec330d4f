// Task timings from msprof's optional files, used to fill what op_summary lacks: start times
// (op_summary exported with --task-time=l0 or from older versions) and memory copy tasks that
// op_summary does not list.
//   task_time_*.csv: Device_id, kernel_name, kernel_type, stream_id, task_id, task_time(us),
//                    task_start(us), task_stop(us)
//   msprof_*.json:   Chrome trace events ("ph":"X") whose args carry "Physic Stream Id" (or
//                    "Stream Id") and "Task Id"; a bare array or {"traceEvents": [...]}
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "msprof/csv_table.hpp"

namespace asc::profiler {

struct TimedTask {
  int stream_id = -1;
  int task_id = -1;
  std::string name;
  double start_us = 0;
  double duration_us = 0;
  bool memcpy = false;                   // a memory copy task (MemcpyAsync)
  std::map<std::string, double> values;  // numeric args: "size(B)", "bandwidth(GB/s)", ...
};

// Rows without stream, task or start are skipped. EE4004 file:line when a present value is not
// a number.
std::vector<TimedTask> read_task_time(const CsvTable& table);
// `text` is the msprof json read from `file`; EE4004 naming the file for malformed JSON.
std::vector<TimedTask> parse_timeline_json(std::string_view text, const std::filesystem::path& file);

}  // namespace asc::profiler
