// asc: loads plugins and runs YAML pipelines. All tool logic lives in the plugins; this is the
// command line around asc::host.
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "asc/host/close_names.hpp"
#include "asc/host/memory_policy.hpp"
#include "asc/host/pipeline_runner.hpp"
#include "asc/host/tool_main.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/io.hpp"
#include "asc/sdk/version.hpp"
#include "commands.hpp"

namespace {

using Command = int (*)(const std::vector<std::string>&);

const std::map<std::string, Command> kCommands{
    {"plugins", asc::cli::plugins_command},
    {"run", asc::cli::run_command},
    {"stages", asc::cli::stages_command},
};

constexpr const char* kUsage =
    "Usage: asc [--help] [--version] COMMAND [ARGS]\n"
    "\n"
    "Commands:\n"
    "  plugins   list the plugins found and why any were refused\n"
    "  stages    list the pipeline stages the loaded plugins offer\n"
    "  run       run a YAML pipeline: asc run PIPELINE.yaml [--set NAME=VALUE]...\n"
    "\n"
    "Run `asc COMMAND --help` for a command's options.\n";

int dispatch(const std::vector<std::string>& arguments) {
  if (arguments.empty()) throw asc::Error(asc::ErrorCode::UsageError, "no command given (run `asc --help`)");
  const std::string& first = arguments.front();
  if (first == "--help" || first == "-h") {
    std::cout << kUsage;
    return 0;
  }
  if (first == "--version") {
    std::cout << "asc " ASC_TOOL_VERSION " (SDK " ASC_SDK_VERSION_STRING ", C++ ABI " ASC_SDK_ABI_TAG ")\n";
    return 0;
  }
  const auto command = kCommands.find(first);
  if (command == kCommands.end()) {
    std::vector<std::string> names;
    for (const auto& [name, unused] : kCommands) names.push_back(name);
    throw asc::Error(asc::ErrorCode::UsageError, "unknown command or option '" + first + "'" +
                                                     asc::host::did_you_mean(first, names) + " (run `asc --help`)");
  }
  return command->second({arguments.begin() + 1, arguments.end()});
}

}  // namespace

int main(int argc, char** argv) {
  asc::host::retain_freed_memory();
  asc::remove_temporary_files_on_signal();
  try {
    return dispatch({argv + 1, argv + argc});
  } catch (const asc::host::StageFailure& failure) {
    std::cerr << "asc: " << failure.what() << '\n';
    return asc::exit_code_for(failure.code());
  } catch (const asc::Error& error) {
    std::cerr << "asc: " << error.what() << '\n';
    return asc::exit_code_for(error.code());
  } catch (const std::exception& unexpected) {
    const asc::Error error = asc::host::coded_error(unexpected);
    std::cerr << "asc: " << error.what() << '\n';
    return asc::exit_code_for(error.code());
  } catch (...) {
    std::cerr << "asc: " << asc::Error(asc::ErrorCode::Internal, "unknown exception").what() << '\n';
    return asc::exit_code_for(asc::ErrorCode::Internal);
  }
}
