// The reference backend plugin: the "reference" backend and the `reference.run` stage.
#include <asc/sdk/plugin.hpp>

#include "reference_backend.hpp"
#include "run_stage.hpp"

ASC_PLUGIN("backend_reference", ASC_SDK_VERSION_STRING, asc::kBackendKind,
           "reference backend: runs graphs node by node with the operators' reference kernels") {
  registrar.add_backend(std::make_shared<asc::reference::ReferenceBackend>());
  registrar.add_stage(asc::reference::reference_run_stage());
}
