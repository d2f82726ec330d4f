#include "asc/host/single_stage.hpp"

#include <asc/sdk/error.hpp>
#include <asc/host/tool_main.hpp>
#include <asc/sdk/registry.hpp>
#include <exception>

namespace asc::host {

void run_single_stage(PipelineContext& context, const std::string& stage_name,
                      const std::map<std::string, std::string>& values) {
  const StageDefinition* stage = context.registry.stage(stage_name);
  if (stage == nullptr) throw Error(ErrorCode::PluginNotFound, "no loaded plugin provides stage " + stage_name);
  StageParams params;
  params.set_stage_name(stage->name);
  for (const ParamSpec& spec : stage->params) {
    if (const auto it = values.find(spec.name); it != values.end())
      params.set(spec.name, it->second);
    else if (!spec.default_value.empty())
      params.set(spec.name, spec.default_value);
  }
  try {
    stage->run(context, params);
  } catch (const Error& error) {
    throw Error(error.code(), error.message());
  } catch (const std::exception& error) {
    throw coded_error(error);
  }
}

}  // namespace asc::host
