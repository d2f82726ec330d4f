// The ais_bench_runner plugin: the `ais_bench.run` stage, ais_bench's benchmark loop over any backend's
// Executable (the NPU simulator by default), through the SDK alone.
#include <asc/sdk/plugin.hpp>

#include "bench_stage.hpp"

ASC_PLUGIN("ais_bench_runner", ASC_SDK_VERSION_STRING, 0u,
           "ais_bench: benchmark an offline model on a backend, with outputs, summaries, dumps and profiles") {
  registrar.add_stage(asc::bench::bench_stage());
}
