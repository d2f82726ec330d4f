// Publishing a profile in msprof's format (since SDK 0.3): the exported profiling directory,
// written from a run's tasks:
//   <dir>/PROF_000001_<yyyymmddhhmmssmmm>_<16 letters>/
//     device_0/sample.json   the collection's options (what msprof passed, see collection_options.hpp)
//     device_0/info.json.0   the device, SoC and model profiled (info_json.hpp)
//     mindstudio_profiler_output/
//       op_summary_<ts>.csv    msprof's columns, in its order (CANN <= 8.x spelling "Block Dim");
//                              the PMU columns only in task-based collections (--aic-mode)
//       op_statistic_<ts>.csv  per (OP Type, Core Type): count and total/avg/min/max time, ratio
//       task_time_<ts>.csv     per task, copies included: kernel name and type, stream, task id,
//                              duration, start, stop
//       msprof_<ts>.json       Chrome trace (msprof_timeline.hpp)
//       ai_core_utilization_<ts>.csv (and ai_vector_core_utilization_<ts>.csv on split SoCs):
//                              sample-based collections (ai_core_utilization_csv.hpp)
// Host <-> device copies (MEMCPY_ASYNC tasks) appear in task_time and the timeline, not in
// op_summary / op_statistic, which list operators. With --task-time=off no task files are
// written; with l0 op_summary's OP Type, Task Type, shapes, dtypes and formats read N/A.
// The PROF_ directory is assembled under a temporary name and renamed into place.
#pragma once

#include "asc/sdk/backend.hpp"
#include "asc/sdk/profiling.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "asc/sdk/msprof/collection_options.hpp"
#include "asc/sdk/msprof/info_json.hpp"

namespace asc::msprof {

// op_summary's header for this SoC (task-based: with the PMU columns).
std::vector<std::string> op_summary_columns(const DeviceInfo& device, bool with_pmu = true);

// op_summary's PMU columns (PipeUtilization) for this device, in msprof's order: aic_/aiv_ prefixed
// on split products (910B), unprefixed on coupled ones (310, 310P, 910).
std::vector<std::string> pmu_columns(const DeviceInfo& device);

// Writes under options.result_dir; returns the PROF_* directory.
std::filesystem::path write_msprof_output(const CollectionOptions& options, const std::vector<ProfileEvent>& events,
                                          const DeviceInfo& device, const ProfiledModel& model = {});

}  // namespace asc::msprof
