// The `npusim.bench` stage: ais_bench on the simulated NPU. Loads an .om, feeds it files or
// generated data, runs warm-up and measured inferences, writes the outputs, the summary lines
// and <output>/<dirname>_summary.json as ais_bench does, and optionally an msprof-style profile
// (<output>/profiler/PROF_*) or every task's outputs (<output>/dump, seed naming). docs/ais_bench.md.
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::npusim {

StageDefinition npusim_bench_stage();

}  // namespace asc::npusim
