// Runs an AtcRequest through the host library: loads the plugins (--op_lib_path first), plans
// the embedded pipeline with the request's variables (the whole pipeline is checked before
// anything runs), then runs it stage by stage.
#pragma once

#include <memory>

#include "asc/host/pipeline_document.hpp"
#include "asc/host/pipeline_plan.hpp"
#include "asc/host/plugin_host.hpp"
#include "atc_request.hpp"

namespace asc::atc {

// atc.yaml or om_to_json.yaml, as embedded; messages cite configs/pipelines/<name>.yaml.
host::PipelineDocument pipeline_document(AtcMode mode);

// Every plugin of the search path, with --op_lib_path's directories first. A library in one of
// those directories that fails to load is EE6001 with the loader's reason (not a skipped file).
std::unique_ptr<host::PluginHost> load_plugins(const AtcRequest& request);

host::PipelinePlan plan_request(const AtcRequest& request, const host::PluginHost& plugins);

// Loads plugins, plans and runs. Throws asc::Error or host::StageFailure.
void run_request(const AtcRequest& request);

}  // namespace asc::atc
