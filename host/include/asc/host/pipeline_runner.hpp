// Runs a planned pipeline stage by stage, timing each (shown at --log info).
#pragma once

#include <stdexcept>
#include <string>

#include "asc/host/pipeline_plan.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/pipeline.hpp"

namespace asc::host {

// A stage failed: what() reads "stage 'X' (file:line) failed: <the stage's error>". Built from
// host code only, so it stays valid after the plugin that threw is unloaded.
class StageFailure : public std::runtime_error {
 public:
  StageFailure(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

// Runs the enabled stages in order on `context`. An asc::Error from a stage becomes a
// StageFailure with the same code; any other exception becomes one with EE9001.
void run_pipeline(const PipelinePlan& plan, PipelineContext& context);

}  // namespace asc::host
