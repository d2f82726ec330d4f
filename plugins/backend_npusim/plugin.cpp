// The NPU simulator plugin: the "npusim" backend and the `npusim.run` stage.
#include <asc/sdk/plugin.hpp>

#include "npusim_backend.hpp"
#include "run_stage.hpp"

ASC_PLUGIN("backend_npusim", ASC_SDK_VERSION_STRING, asc::kBackendKind,
           "NPU simulator backend: fp16 NPU numerics and a per-task timing model of Ascend SoCs") {
  registrar.add_backend(std::make_shared<asc::npusim::NpusimBackend>());
  registrar.add_stage(asc::npusim::npusim_run_stage());
}
