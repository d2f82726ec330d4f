// modelTrade: the seed's profiling analysis command. A thin front end: it loads the profiler
// plugin through the host's plugin search path and runs profiler.analyse with the flags as its
// parameters; the stage prints the summary and advice and writes the reports.
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

constexpr const char* kStage = "profiler.analyse";

int run(const std::vector<std::string>& arguments) {
  const asc::model_trade::Invocation invocation = asc::model_trade::parse_command_line(arguments);
  if (invocation.help) {
    std::cout << asc::model_trade::kUsage;
    return 0;
  }
  asc::host::PluginHost plugins(asc::host::plugin_search_path({}));
  plugins.load_named({"profiler"});  // only this one, not every plugin installed
  asc::PipelineContext context{plugins.registry()};
  asc::host::run_single_stage(context, kStage, invocation.params);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return asc::host::run_tool("modelTrade: ", [&] { return run({argv + 1, argv + argc}); });
}
