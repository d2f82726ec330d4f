// Shared helpers of the profiler tests: temporary directories, fixture paths, profile builders,
// and running the modelTrade / asc executables.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace profiler_test {

namespace fs = std::filesystem;

// The hand-made msprof profiles under tests/profiler/data.
fs::path data_dir();
fs::path block_dim_prof_dir();  // resnet_block_dim/PROF_... (CANN <= 8.x header, unprefixed PMU)
fs::path
block_num_parent_dir();  // resnet_block_num/profiling_output (holds one PROF_...; Block Num, aic_/aiv_)

// A fresh directory removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& relative, const std::string& text) const;

 private:
  fs::path path_;
};

std::string read_text(const fs::path& file);

// An AI Core task of `duration_us` starting at `start_us` on stream 0.
asc::ProfileEvent task(const std::string& name, const std::string& type, double duration_us,
                       double start_us = 0);
asc::ProfileTrace trace_of(std::vector<asc::ProfileEvent> events);
// The JSON report of the model_trade profiler (no options) for `trace`.
nlohmann::ordered_json analyse(const asc::ProfileTrace& trace, double ddr_peak_gbps = 0);
// The advice entries of `report` whose rule is `rule`.
std::vector<nlohmann::ordered_json> advice_of(const nlohmann::ordered_json& report, const std::string& rule);

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
CommandResult run_command(const std::string& command_line);
std::string quoted(const fs::path& path);

}  // namespace profiler_test
