// Runs one registered stage outside a pipeline, as the tool front ends (op_validate, modelTrade,
// ais_bench) do: the parameters they were given by name, every other one at its default.
#pragma once

#include <asc/sdk/pipeline.hpp>
#include <map>
#include <string>

namespace asc::host {

// Runs stage `stage_name` of `context.registry`. A stage no loaded plugin provides is EE6006.
// Errors the stage throws are rethrown as copies made here: an exception object must not outlive
// the plugin library whose code created it, and callers may unload plugins while unwinding.
void run_single_stage(PipelineContext& context, const std::string& stage_name,
                      const std::map<std::string, std::string>& values);

}  // namespace asc::host
