// msprof: collects a profile of an application on the simulated NPU, with Huawei msprof's
// collection command line. It checks the options, puts them in PROFILER_SAMPLECONFIG for the
// application's runtime (the npusim runtime in ais_bench honours it), runs the application and
// names the PROF_* directories it wrote.
#include <asc/host/tool_main.hpp>
#include <asc/sdk/error.hpp>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "launch.hpp"

namespace {

constexpr const char* kSampleConfigVariable = "PROFILER_SAMPLECONFIG";

std::set<std::filesystem::path> prof_directories(const std::filesystem::path& dir) {
  std::set<std::filesystem::path> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.is_directory() && entry.path().filename().string().rfind("PROF_", 0) == 0) found.insert(entry.path());
  return found;
}

int run(const std::vector<std::string>& arguments) {
  const asc::msprof::Invocation invocation = asc::msprof::parse_command_line(arguments);
  if (invocation.help) {
    std::cout << asc::msprof::usage();
    return 0;
  }
  const std::filesystem::path program = asc::msprof::find_program(invocation.application.front());
  std::error_code error;
  std::filesystem::create_directories(invocation.output, error);
  if (error || !std::filesystem::is_directory(invocation.output))
    throw asc::Error(asc::ErrorCode::FileWriteFailed,
                     "--output: cannot create the directory " + invocation.output.string() +
                         (error ? " (" + error.message() + ")" : std::string()));
  const std::set<std::filesystem::path> before = prof_directories(invocation.output);
  std::cout << "[INFO] msprof: profiling " << program.string() << " (mode "
            << invocation.sample_config["ai_core_profiling_mode"].get<std::string>() << "), data to "
            << invocation.output.string() << std::endl;
  const int status = asc::msprof::run_with_environment(program, invocation.application, kSampleConfigVariable,
                                                       invocation.sample_config.dump());
  std::size_t written = 0;
  for (const std::filesystem::path& prof : prof_directories(invocation.output))
    if (!before.count(prof)) {
      std::cout << "[INFO] msprof: profiling data in " << prof.string() << std::endl;
      ++written;
    }
  if (written == 0)
    std::cerr << "[WARNING] msprof: the application wrote no PROF_* directory: only an application running a model "
                 "on the simulated NPU (ais_bench) honours "
              << kSampleConfigVariable << std::endl;
  if (status != 0) std::cerr << "[WARNING] msprof: the application exited with status " << status << std::endl;
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  return asc::host::run_tool("[ERROR] ", [&] { return run({argv + 1, argv + argc}); });
}
