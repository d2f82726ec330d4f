// modelTrade, the seed's profiling analysis: the "model_trade" profiler and the
// profiler.analyse stage that the modelTrade command and pipelines run.
#include <asc/sdk/plugin.hpp>
#include <memory>

#include "analysis/model_trade_profiler.hpp"
#include "stage/analyse_stage.hpp"

ASC_PLUGIN("profiler", ASC_SDK_VERSION_STRING, asc::kProfilerKind,
           "modelTrade profiling analysis: msprof op_summary reports, bottleneck rules and advice, HTML and "
           "Chrome-trace views") {
  registrar.add_profiler(std::make_shared<asc::profiler::ModelTradeProfiler>());
  registrar.add_stage(asc::profiler::analyse_stage());
}
