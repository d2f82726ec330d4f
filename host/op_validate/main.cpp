// op_validate: the seed's precision check command. A thin front end: it loads the validator
// plugin through the host's plugin search path and runs the matching stage with the flags as
// its parameters; the stage prints the metrics and diagnosis and writes the reports.
#include <asc/host/plugin_host.hpp>
#include <asc/host/single_stage.hpp>
#include <asc/host/tool_main.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/pipeline.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace {

constexpr int kExitPass = 0;
constexpr int kExitPrecisionFailure = 1;
constexpr int kExitBadInput = 2;

int run(const std::vector<std::string>& arguments) {
  const asc::op_validate::Invocation invocation = asc::op_validate::parse_command_line(arguments);
  if (invocation.help) {
    std::cout << asc::op_validate::kUsage;
    return kExitPass;
  }
  asc::host::PluginHost plugins(asc::host::plugin_search_path({}));
  plugins.load_named({"validator"});  // only this one, not every plugin installed
  asc::PipelineContext context{plugins.registry()};
  asc::host::run_single_stage(context, invocation.stage, invocation.params);
  return kExitPass;
}

}  // namespace

int main(int argc, char** argv) {
  return asc::host::run_tool("op_validate: ", [&] { return run({argv + 1, argv + argc}); },
                              [](asc::ErrorCode code) {
                                return code == asc::ErrorCode::ValidationFailed ? kExitPrecisionFailure : kExitBadInput;
                              });
}
