#include "atc_pipeline.hpp"

#include "asc/host/pipeline_runner.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/log.hpp"
#include "asc/sdk/pipeline.hpp"
#include "embedded_pipelines.hpp"

namespace asc::atc {
namespace {

// The code of a coded reason ("EE6003 ..."), or EE6001 when it names no known code.
ErrorCode reason_code(const std::string& reason) {
  for (const ErrorCode code : all_error_codes())
    if (reason.rfind(error_code_id(code) + " ", 0) == 0) return code;
  return ErrorCode::PluginLoadFailed;
}

}  // namespace

host::PipelineDocument pipeline_document(AtcMode mode) {
  if (mode == AtcMode::OmToJson)
    return host::parse_pipeline_document(kOmToJsonPipelineYaml, "configs/pipelines/om_to_json.yaml");
  return host::parse_pipeline_document(kAtcPipelineYaml, "configs/pipelines/atc.yaml");
}

std::unique_ptr<host::PluginHost> load_plugins(const AtcRequest& request) {
  auto plugins = std::make_unique<host::PluginHost>(host::plugin_search_path(request.op_lib_dirs));
  plugins->load_all();
  for (const auto& dir : request.op_lib_dirs) {
    bool found = false;
    for (const auto& candidate : plugins->candidates()) {
      if (candidate.file.parent_path() != dir) continue;
      found = true;
      if (!candidate.loaded) {
        // The reason is a coded what() ("EE6003 plugin built against an incompatible SDK version:
        // ..."): keep its code (as `asc plugins` reports it) and its detail.
        const bool coded = candidate.reason.rfind("EE", 0) == 0;
        const auto detail = coded ? candidate.reason.find(": ") : std::string::npos;
        throw Error(coded ? reason_code(candidate.reason) : ErrorCode::PluginLoadFailed,
                    "--op_lib_path plugin " + candidate.file.string() + " was not loaded: " +
                        (detail == std::string::npos ? candidate.reason : candidate.reason.substr(detail + 2)));
      }
      log_info("atc: custom operator plugin '" + candidate.name + "' loaded from " + candidate.file.string());
    }
    if (!found) log_warning("atc: --op_lib_path directory " + dir.string() + " holds no plugin library (*.so)");
  }
  return plugins;
}

host::PipelinePlan plan_request(const AtcRequest& request, const host::PluginHost& plugins) {
  return host::plan_pipeline(pipeline_document(request.mode), plugins, request.variables);
}

void run_request(const AtcRequest& request) {
  const auto plugins = load_plugins(request);
  const auto plan = plan_request(request, *plugins);
  PipelineContext context{plugins->registry()};
  context.show_progress = stderr_is_terminal();
  host::run_pipeline(plan, context);
}

}  // namespace asc::atc
