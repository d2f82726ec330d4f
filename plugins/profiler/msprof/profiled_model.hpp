// What a profile says it measured: PROF_*/device_*/info.json* (msprof's device-info file; the NPU
// simulator adds "soc_version" and "model": {"name", "precision_mode", "batch"}, see
// asc/sdk/msprof/info_json.hpp). Real msprof's info.json has no model; its SoC is then
// not named either, and the report falls back to op_summary's Model Name column or "unknown".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace asc::profiler {

struct ProfiledModel {
  std::filesystem::path file;  // the info.json read
  std::string model_name, soc_version, precision_mode;
  std::int64_t batch = 0;  // 0: not recorded
  std::string timing_accuracy;  // a simulator's calibration error band ("" when not given)
};

// Looks in the PROF_* directory that holds `op_summary_dir` (mindstudio_profiler_output/, or the
// older device_<id>/summary/) for device_*/info.json*, in name order, and returns the first that
// names a model or SoC. A malformed info.json is skipped with a warning: it only labels the
// report, and the analysis does not depend on it.
std::optional<ProfiledModel> read_profiled_model(const std::filesystem::path& op_summary_dir);

}  // namespace asc::profiler
