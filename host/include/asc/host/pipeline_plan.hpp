// A pipeline document checked against the loaded plugins, ready to run: every stage resolved to
// its StageDefinition, every parameter substituted, type-checked and defaulted. Building a plan
// validates the whole pipeline, so nothing runs unless all of it is valid.
#pragma once

#include <string>
#include <vector>

#include "asc/host/pipeline_document.hpp"
#include "asc/host/pipeline_variables.hpp"
#include "asc/host/plugin_host.hpp"
#include "asc/host/source_location.hpp"
#include "asc/sdk/pipeline.hpp"

namespace asc::host {

struct PlannedStage {
  const StageDefinition* definition = nullptr;  // owned by the PluginHost's registry
  StageParams params;
  std::string label;
  SourceLocation where;
  bool disabled = false;
};

struct PipelinePlan {
  std::string name;
  std::vector<PlannedStage> stages;
};

// Throws asc::Error citing file:line:column: EE6006 (a listed plugin is not loaded), EE5005
// (unknown stage, or a stage of a plugin the pipeline does not list), EE5002 (unknown
// parameter), EE5004 (missing parameter or required variable), EE5003 (a value that is not an
// Int/Float/Bool as declared), EE5006 (unknown variable).
PipelinePlan plan_pipeline(const PipelineDocument& document, const PluginHost& plugins,
                           const std::vector<VariableAssignment>& assignments);

}  // namespace asc::host
