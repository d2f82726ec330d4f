// Pipeline stage "profiler.analyse": modelTrade's analysis of an msprof-format directory (or of
// the profile earlier stages collected), written as JSON, HTML and/or Chrome trace.
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::profiler {

StageDefinition analyse_stage();

}  // namespace asc::profiler
