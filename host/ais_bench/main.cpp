// ais_bench (also installed as ais-bench): runs an .om on the simulated NPU as ais_bench runs
// one on a card. A thin front end: it loads the plugins an offline model needs (no ONNX parser),
// asks the backend that reads the .om for the custom operator plugins it records, and runs the
// ais_bench.run stage with the flags as its parameters; the stage prints ais_bench's lines and
// writes its files.
#include <asc/host/memory_policy.hpp>
#include <asc/host/plugin_host.hpp>
#include <asc/host/single_stage.hpp>
#include <asc/host/tool_main.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <asc/sdk/pipeline.hpp>
#include <asc/sdk/registry.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "bench_plugins.hpp"
#include "command_line.hpp"

namespace {

constexpr const char* kStage = "ais_bench.run";

int run(const std::string& program, const std::vector<std::string>& arguments) {
  const asc::ais_bench::Invocation invocation = asc::ais_bench::parse_command_line(program, arguments);
  if (invocation.help) {
    std::cout << asc::ais_bench::usage();
    return 0;
  }
  if (invocation.params.count("debug") != 0 && invocation.params.at("debug") == "true")
    asc::set_log_level(asc::LogLevel::Debug);
  const auto plugins = asc::ais_bench::load_bench_plugins(invocation.model, invocation.backend);
  asc::PipelineContext context{plugins->registry()};
  context.show_progress = asc::stderr_is_terminal();
  asc::host::run_single_stage(context, kStage, invocation.params);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  asc::host::retain_freed_memory();
  return asc::host::run_tool("[ERROR] ", [&] { return run(argv[0], {argv + 1, argv + argc}); });
}
