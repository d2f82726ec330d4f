#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::fusion {

// The `fusion.optimize` pipeline stage: runs the registered passes over the context's graph.
StageDefinition optimize_stage();

}  // namespace asc::fusion
