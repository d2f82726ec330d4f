// Graph optimisation: clean-up and fusion passes, the fused operators they produce (domain
// "asc"), and the `fusion.optimize` stage that runs them.
#include <asc/sdk/plugin.hpp>

#include "ops/inner_ops.hpp"
#include "pass_catalog.hpp"
#include "stage/optimize_stage.hpp"

ASC_PLUGIN("fusion", ASC_SDK_VERSION_STRING, asc::kPassKind | asc::kOpLibraryKind,
           "Graph clean-up and fusion passes, with the fused operators they produce") {
  asc::fusion::bind_inner_op_registry(registrar.registry().ops());
  registrar.add_collected_ops();
  for (auto& pass : asc::fusion::builtin_passes()) registrar.add_pass(std::move(pass));
  registrar.add_stage(asc::fusion::optimize_stage());
}
