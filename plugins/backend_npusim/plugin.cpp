// The NPU simulator plugin: the "npusim" backend, the `npusim.compile`, `npusim.run` and
// `npusim.om_to_json` stages. (ais_bench's loop is the ais_bench_runner plugin's, over any backend.)
#include <asc/sdk/plugin.hpp>

#include "compile_stage.hpp"
#include "npusim_backend.hpp"
#include "om/om_to_json_stage.hpp"
#include "run_stage.hpp"

ASC_PLUGIN("backend_npusim", ASC_SDK_VERSION_STRING, asc::kBackendKind,
           "NPU simulator backend: fp16 NPU numerics and a per-task timing model of Ascend SoCs") {
  registrar.add_backend(std::make_shared<asc::npusim::NpusimBackend>());
  registrar.add_stage(asc::npusim::npusim_run_stage());
  registrar.add_stage(asc::npusim::npusim_compile_stage());
  registrar.add_stage(asc::npusim::om_to_json_stage());
}
