// What a profile measured, written beside msprof's data so that an analysis (modelTrade) can name
// it without being told (since SDK 0.3): PROF_*/device_0/info.json.0, the file msprof keeps its device facts in.
//
// msprof's own keys, as its collector writes them (hicann/runtime dvvp info_json.cpp; docs/msprof.md):
//   "version", "devices" ("0"), "pid", "DeviceInfo": [{"id", "ai_core_num", "aiv_num",
//   "aic_frequency", "aiv_frequency" (MHz, as text)}]
// and the simulator's additions (real msprof keeps the model elsewhere, in its database):
//   "soc_version"  e.g. "Ascend310P3"
//   "model": {"name", "precision_mode", "batch"}   (name empty / batch 0 when unknown)
//   "timing_accuracy"  DeviceInfo::timing_accuracy, when known (since SDK 0.4)
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "asc/sdk/backend.hpp"

namespace asc::msprof {

struct ProfiledModel {
  std::string name;            // the .om's (or graph's) name
  std::string precision_mode;  // the compile's precision mode, e.g. force_fp16
  std::int64_t batch = 0;      // the first input's leading dimension (0: unknown)
};

// Writes <prof_dir>/device_0/info.json.0 (atomically; the directory must exist).
void write_msprof_info(const std::filesystem::path& prof_dir, const ProfiledModel& model, const DeviceInfo& device);

}  // namespace asc::msprof
