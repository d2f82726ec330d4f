// modelTrade: the seed's profiling analysis command. A thin front end: it loads the profiler
// plugin through the host's plugin search path and runs profiler.analyse with the flags as its
// parameters; the stage prints the summary and advice and writes the reports.
#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/pipeline.hpp>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace {

constexpr const char* kStage = "profiler.analyse";

// Loads profiler.so from the first search-path directory that has one (the command needs no
// other plugin).
void load_profiler(asc::host::PluginHost& plugins) {
  for (const auto& dir : plugins.search_path()) {
    const std::filesystem::path file = dir / "profiler.so";
    std::error_code error;
    if (std::filesystem::exists(file, error)) {
      plugins.load_file(file);
      break;
    }
  }
  plugins.require({"profiler"});
}

int run(const std::vector<std::string>& arguments) {
  const asc::model_trade::Invocation invocation = asc::model_trade::parse_command_line(arguments);
  if (invocation.help) {
    std::cout << asc::model_trade::kUsage;
    return 0;
  }
  asc::host::PluginHost plugins(asc::host::plugin_search_path({}));
  load_profiler(plugins);
  const asc::StageDefinition* stage = plugins.registry().stage(kStage);
  if (stage == nullptr)
    throw asc::Error(asc::ErrorCode::PluginNotFound,
                     std::string("the loaded profiler plugin has no stage ") + kStage);
  asc::StageParams params;
  params.set_stage_name(stage->name);
  for (const asc::ParamSpec& spec : stage->params) {
    if (const auto it = invocation.params.find(spec.name); it != invocation.params.end())
      params.set(spec.name, it->second);
    else if (!spec.default_value.empty())
      params.set(spec.name, spec.default_value);
  }
  asc::PipelineContext context{plugins.registry()};
  // An exception thrown by plugin code must not outlive the plugin: its destructor lives in the
  // library, which `plugins` unloads while the exception propagates. Rethrow a copy made here.
  try {
    stage->run(context, params);
  } catch (const asc::Error& error) {
    throw asc::Error(error.code(), error.message());
  } catch (const std::exception& error) {
    throw asc::Error(asc::ErrorCode::Internal, error.what());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run({argv + 1, argv + argc});
  } catch (const asc::Error& error) {
    std::cerr << "modelTrade: " << error.what() << '\n';
    return asc::exit_code_for(error.code());
  } catch (const std::exception& unexpected) {
    std::cerr << "modelTrade: " << asc::Error(asc::ErrorCode::Internal, unexpected.what()).what() << '\n';
    return asc::exit_code_for(asc::ErrorCode::Internal);
  }
}
