// What an msprof collection asks the simulated runtime for, and how it arrives.
//
// The real msprof (command-line mode) serialises its options as a JSON object (its ProfileParams)
// into the environment variable PROFILER_SAMPLECONFIG of the application it launches; the CANN
// runtime inside the application finds it at start-up and profiles with those options, writing
// to "result_dir" (docs/msprof.md cites the sources). The npusim runtime honours the same
// variable and the same keys:
//   result_dir               where PROF_* is written (required)
//   ai_core_profiling        "on" / "off"                           (msprof --ai-core)
//   ai_core_profiling_mode   "task-based" / "sample-based"          (--aic-mode)
//   aicore_sampling_interval sampling period in ms, 1000 / --aic-freq rounded down
//   ai_core_metrics          "PipeUtilization" (the one PMU group the timing model fills)
//   taskTime                 "on" / "l1" / "l0" / "off"             (--task-time)
// Other keys (the rest of msprof's options) are kept and written to PROF_*/device_0/sample.json.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace asc::msprof {

enum class AicMode { TaskBased, SampleBased };
// on/l1: everything per task; l0: durations only (no op types, shapes or PMU); off: no task data.
enum class TaskTimeLevel { Off, L0, L1 };

struct CollectionOptions {
  std::filesystem::path result_dir;
  bool ai_core = true;
  AicMode aic_mode = AicMode::TaskBased;
  int sampling_interval_ms = 10;  // 100 Hz
  TaskTimeLevel task_time = TaskTimeLevel::L1;
  std::string sample_config;  // the whole collection request as JSON text (PROF_*/device_0/sample.json)

  // Per-task PMU columns in op_summary (task-based AI Core collection with full task data).
  bool per_task_pmu() const { return ai_core && aic_mode == AicMode::TaskBased && task_time == TaskTimeLevel::L1; }
  bool sampled() const { return ai_core && aic_mode == AicMode::SampleBased; }
};

inline constexpr const char* kSampleConfigVariable = "PROFILER_SAMPLECONFIG";

// ais_bench --profiler's collection: msprof's defaults (task-based, PipeUtilization, task time on).
CollectionOptions default_collection(const std::filesystem::path& result_dir);

// Parses a PROFILER_SAMPLECONFIG value. `source` names it in messages. Throws EE5001 (not a JSON
// object), EE5004 (no result_dir), EE5007 (a value msprof would not have written, or a PMU group
// the simulator does not model).
CollectionOptions parse_sample_config(const std::string& text, const std::string& source);

// The collection msprof asked for through the environment, if any.
std::optional<CollectionOptions> collection_from_environment();

}  // namespace asc::msprof
