#include "msprof/msprof_layout.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <string>

namespace asc::profiler {
namespace fs = std::filesystem;
namespace {

bool name_matches(const fs::path& file, std::string_view prefix, std::string_view extension) {
  const std::string name = file.filename().string();
  return name.starts_with(prefix) && name.ends_with(extension) &&
         name.size() > prefix.size() + extension.size() - 1;
}

std::vector<fs::path> files_in(const fs::path& dir, std::string_view prefix, std::string_view extension) {
  std::vector<fs::path> files;
  std::error_code error;
  if (!fs::is_directory(dir, error)) return files;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (entry.is_regular_file(error) && name_matches(entry.path(), prefix, extension))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> subdirectories(const fs::path& dir, std::string_view prefix) {
  std::vector<fs::path> dirs;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (entry.is_directory(error) && entry.path().filename().string().starts_with(prefix))
      dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

MsprofFiles files_of(const fs::path& dir) {
  MsprofFiles files;
  files.directory = dir;
  files.op_summary = files_in(dir, "op_summary_", ".csv");
  files.task_time = files_in(dir, "task_time_", ".csv");
  files.timeline_json = files_in(dir, "msprof_", ".json");
  return files;
}

// The directories of one PROF_* that may hold op_summary, newest layout first.
std::vector<fs::path> summary_dirs_of_prof(const fs::path& prof) {
  std::vector<fs::path> dirs{prof / "mindstudio_profiler_output"};
  for (const fs::path& device : subdirectories(prof, "device_")) dirs.push_back(device / "summary");
  return dirs;
}

}  // namespace

MsprofFiles locate_msprof_files(const fs::path& report) {
  std::error_code error;
  if (!fs::exists(report, error))
    throw Error(ErrorCode::FileNotFound, "profiling directory '" + report.string() + "' does not exist");
  if (!fs::is_directory(report, error)) {
    if (name_matches(report, "op_summary", ".csv")) {
      MsprofFiles files = files_of(report.parent_path().empty() ? fs::path(".") : report.parent_path());
      files.op_summary = {report};
      return files;
    }
    throw Error(ErrorCode::ConfigBadValue,
                "'" + report.string() +
                    "' is a file: --report takes an msprof directory (PROF_* or its "
                    "mindstudio_profiler_output/) or an op_summary_*.csv");
  }

  std::vector<fs::path> candidates{report};
  for (const fs::path& dir : summary_dirs_of_prof(report)) candidates.push_back(dir);
  for (const fs::path& dir : candidates) {
    MsprofFiles files = files_of(dir);
    if (!files.op_summary.empty()) return files;
  }

  std::vector<MsprofFiles> found;
  for (const fs::path& prof : subdirectories(report, "PROF_"))
    for (const fs::path& dir : summary_dirs_of_prof(prof)) {
      MsprofFiles files = files_of(dir);
      if (!files.op_summary.empty()) {
        found.push_back(std::move(files));
        break;
      }
    }
  if (found.size() == 1) return found.front();
  if (found.size() > 1) {
    std::string list;
    for (const MsprofFiles& files : found) list += "\n  " + files.directory.string();
    throw Error(ErrorCode::ConfigBadValue,
                "'" + report.string() + "' holds several profiles; pass one of them:" + list);
  }
  const std::string r = report.string();
  throw Error(ErrorCode::ConfigBadValue,
              "no op_summary_*.csv found for '" + r + "'. Looked in " + r + ", " + r +
                  "/mindstudio_profiler_output, " + r + "/device_*/summary, " + r +
                  "/PROF_*/mindstudio_profiler_output and " + r +
                  "/PROF_*/device_*/summary. Export the raw data first (msprof --export=on --output=" + r +
                  "), or point --report at the PROF_* directory");
}

}  // namespace asc::profiler
