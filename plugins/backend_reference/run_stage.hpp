// The `reference.run` pipeline stage: runs the pipeline's graph on the reference backend with
// inputs from .npy files (or seeded random ones) and writes every graph output as .npy.
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::reference {

StageDefinition reference_run_stage();

}  // namespace asc::reference
