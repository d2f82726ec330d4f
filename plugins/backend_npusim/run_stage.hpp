// The `npusim.run` pipeline stage: reference.run's parameters plus the SoC, precision mode and
// an msprof-style profile directory. Writes every graph output as .npy and the simulated
// per-task profile into the pipeline context.
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::npusim {

StageDefinition npusim_run_stage();

}  // namespace asc::npusim
