// Reads an msprof-format profile directory (real CANN output or the NPU simulator's) into a
// ProfileTrace, remembering which files and which header generation it came from.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "msprof/msprof_layout.hpp"
#include "msprof/profiled_model.hpp"

namespace asc::profiler {

struct SourceFile {
  std::string role;  // "op_summary", "task_time", "timeline_json"
  std::filesystem::path path;
  std::size_t records = 0;
  std::string note;
};

struct MsprofProfile {
  // model_name from a "Model Name" column, else info.json's model; soc_version from info.json
  ProfileTrace trace;
  std::optional<ProfiledModel> profiled;  // what info.json says was measured, when it says
  std::filesystem::path directory;
  std::vector<SourceFile> files;
  std::string block_column;  // "Block Dim", "Block Num", both, or "" (see op_summary_reader.hpp)
  std::string pmu_naming;
  std::string start_times;  // where task start times came from
  std::size_t skipped_rows = 0;
  std::size_t memcpy_tasks_added = 0;  // memory copies listed only by task_time / msprof json
};

// See msprof_layout.hpp for what `report` may be. Throws EE4001/EE5007 (nothing to read),
// EE4004 file:line (malformed op_summary or task_time), EE5007 when op_summary has no rows.
MsprofProfile read_msprof_profile(const std::filesystem::path& report);

// A file's whole text; read_msprof_profile reads the disk (EE4001/EE4002), the fuzz harness
// (tests/fuzz/fuzz_msprof.cpp) answers from memory.
using FileText = std::function<std::string(const std::filesystem::path&)>;
// read_msprof_profile's work on located files, each text got from `text_of`, without info.json
// (`profiled` stays empty). A timeline that cannot be had or parsed is noted and ignored.
MsprofProfile read_msprof_files(const MsprofFiles& files, const FileText& text_of);

// The report's "source" section: directory, files with record counts, header generation.
nlohmann::ordered_json source_section(const MsprofProfile& profile);

}  // namespace asc::profiler
