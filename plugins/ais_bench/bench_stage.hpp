// The `ais_bench.run` stage: ais_bench on any backend (the simulated NPU by default). Loads an .om, feeds it files or
// generated data, runs warm-up and measured inferences, writes the outputs, the summary lines
// and <output>/<dirname>_summary.json as ais_bench does, and optionally an msprof-style profile
// (<output>/profiler/PROF_*) or every task's outputs (<output>/dump, seed naming). docs/ais_bench.md.
#pragma once

#include <asc/sdk/pipeline.hpp>

namespace asc::bench {

StageDefinition bench_stage();

}  // namespace asc::bench
