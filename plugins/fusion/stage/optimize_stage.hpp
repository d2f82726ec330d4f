#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::fusion {

// The `fusion.optimize` pipeline stage: runs the selected passes over the context's graph,
// logs each pass's counts and time and the kernel count before and after, optionally dumps the
// graph after named passes and writes fusion_result.json (see stage/fusion_result.hpp).
StageDefinition optimize_stage();

}  // namespace asc::fusion
