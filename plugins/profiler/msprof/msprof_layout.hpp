// Where msprof puts its exported files. `report` may be:
//   - a PROF_* directory (PROF_*/mindstudio_profiler_output/op_summary_*.csv),
//   - its mindstudio_profiler_output/ (or any directory holding op_summary_*.csv),
//   - a parent holding exactly one PROF_* (what `acl.prof` / `msprof --output=DIR` leave),
//   - the older CANN layout PROF_*/device_<id>/summary/op_summary_*.csv,
//   - an op_summary_*.csv file itself.
#pragma once

#include <filesystem>
#include <vector>

namespace asc::profiler {

struct MsprofFiles {
  std::filesystem::path directory;                   // where op_summary_*.csv was found
  std::vector<std::filesystem::path> op_summary;     // sorted by name (slices and devices)
  std::vector<std::filesystem::path> task_time;      // task_time_*.csv beside it, if any
  std::vector<std::filesystem::path> timeline_json;  // msprof_*.json beside it, if any
};

// EE4001 when `report` does not exist; EE5007 (saying every place looked at) when no
// op_summary_*.csv is found, or when a parent holds several PROF_* directories that have one.
MsprofFiles locate_msprof_files(const std::filesystem::path& report);

}  // namespace asc::profiler
