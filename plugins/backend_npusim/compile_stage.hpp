// The `npusim.compile` stage: ATC's build step in a pipeline. Compiles the context's graph for a
// SoC (compiler/compile_model.hpp) and writes the .om (om/om_file.hpp).
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::npusim {

StageDefinition npusim_compile_stage();

}  // namespace asc::npusim
