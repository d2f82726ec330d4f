#include "test_support.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "analysis/model_trade_profiler.hpp"

namespace profiler_test {

fs::path data_dir() {
  return fs::path(PROFILER_TEST_DATA_DIR);
}

fs::path block_dim_prof_dir() {
  return data_dir() / "resnet_block_dim" / "PROF_000001_20240315093012345_KQJMGHBNRLOPQRST";
}

fs::path block_num_parent_dir() {
  return data_dir() / "resnet_block_num" / "profiling_output";
}

TempDir::TempDir() {
  std::random_device device;
  path_ = fs::temp_directory_path() /
          ("asc_profiler_test_" + std::to_string(device()) + std::to_string(device()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code error;
  fs::remove_all(path_, error);
}

fs::path TempDir::write(const std::string& relative, const std::string& text) const {
  const fs::path file = path_ / relative;
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

asc::ProfileEvent task(const std::string& name, const std::string& type, double duration_us,
                       double start_us) {
  asc::ProfileEvent event;
  event.op_name = name;
  event.op_type = type;
  event.duration_us = duration_us;
  event.start_us = start_us;
  return event;
}

asc::ProfileTrace trace_of(std::vector<asc::ProfileEvent> events) {
  asc::ProfileTrace trace;
  trace.model_name = "test_model";
  trace.soc_version = "Ascend310P3";
  trace.events = std::move(events);
  return trace;
}

nlohmann::ordered_json analyse(const asc::ProfileTrace& trace, double ddr_peak_gbps) {
  asc::profiler::AnalysisOptions options;
  options.ddr_peak_bandwidth_gbps = ddr_peak_gbps;
  return nlohmann::ordered_json::parse(asc::profiler::ModelTradeProfiler(options).analyse(trace).json_report);
}

std::vector<nlohmann::ordered_json> advice_of(const nlohmann::ordered_json& report, const std::string& rule) {
  std::vector<nlohmann::ordered_json> found;
  for (const auto& item : report.at("advice"))
    if (item.at("rule") == rule) found.push_back(item);
  return found;
}

CommandResult run_command(const std::string& command_line) {
  CommandResult result;
  FILE* pipe = popen((command_line + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

}  // namespace profiler_test
