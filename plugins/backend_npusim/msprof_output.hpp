// msprof's exported profiling directory, written from simulated tasks:
//   <dir>/PROF_000001_<yyyymmddhhmmssmmm>_<16 letters>/mindstudio_profiler_output/
//     op_summary_<ts>.csv    msprof's columns, in its order (CANN <= 8.x spelling "Block Dim")
//     op_statistic_<ts>.csv  per (OP Type, Core Type): count and total/avg/min/max time, ratio
//     task_time_<ts>.csv     per task: kernel name and type, stream, task id, duration, start, stop
//     msprof_<ts>.json       Chrome trace: one lane per stream, one per AI core
// The PROF_ directory is assembled under a temporary name and renamed into place.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "soc_config.hpp"

namespace asc::npusim {

// op_summary's header for this SoC.
std::vector<std::string> op_summary_columns(const SocConfig& soc);

// Returns the PROF_* directory written.
std::filesystem::path write_msprof_output(const std::filesystem::path& dir, const std::vector<ProfileEvent>& events,
                                          const SocConfig& soc);

}  // namespace asc::npusim
