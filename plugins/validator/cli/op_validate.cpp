// op_validate: the seed's precision check command. A thin front end: it loads the validator
// plugin through the host's plugin search path and runs the matching stage with the flags as
// its parameters; the stage prints the metrics and diagnosis and writes the reports.
#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/pipeline.hpp>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace {

constexpr int kExitPass = 0;
constexpr int kExitPrecisionFailure = 1;
constexpr int kExitBadInput = 2;

// Loads validator.so from the first search-path directory that has one (not every plugin: the
// command needs only this one).
void load_validator(asc::host::PluginHost& plugins) {
  for (const auto& dir : plugins.search_path()) {
    const std::filesystem::path file = dir / "validator.so";
    std::error_code error;
    if (std::filesystem::exists(file, error)) {
      plugins.load_file(file);
      break;
    }
  }
  plugins.require({"validator"});
}

int run(const std::vector<std::string>& arguments) {
  const asc::op_validate::Invocation invocation = asc::op_validate::parse_command_line(arguments);
  if (invocation.help) {
    std::cout << asc::op_validate::kUsage;
    return kExitPass;
  }
  asc::host::PluginHost plugins(asc::host::plugin_search_path({}));
  load_validator(plugins);
  const asc::StageDefinition* stage = plugins.registry().stage(invocation.stage);
  if (stage == nullptr)
    throw asc::Error(asc::ErrorCode::PluginNotFound,
                     "the loaded validator plugin has no stage " + invocation.stage);
  asc::StageParams params;
  params.set_stage_name(stage->name);
  for (const asc::ParamSpec& spec : stage->params) {
    if (const auto it = invocation.params.find(spec.name); it != invocation.params.end())
      params.set(spec.name, it->second);
    else if (!spec.default_value.empty())
      params.set(spec.name, spec.default_value);
  }
  asc::PipelineContext context{plugins.registry()};
  stage->run(context, params);
  return kExitPass;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run({argv + 1, argv + argc});
  } catch (const asc::Error& error) {
    std::cerr << "op_validate: " << error.what() << '\n';
    return error.code() == asc::ErrorCode::ValidationFailed ? kExitPrecisionFailure : kExitBadInput;
  } catch (const std::exception& unexpected) {
    std::cerr << "op_validate: " << asc::Error(asc::ErrorCode::Internal, unexpected.what()).what() << '\n';
    return kExitBadInput;
  }
}
