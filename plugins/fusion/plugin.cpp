// Graph optimisation: clean-up and fusion passes, and the stage that runs them.
#include <asc/sdk/plugin.hpp>

#include "passes/dead_node_elimination.hpp"
#include "passes/identity_elimination.hpp"
#include "stage/optimize_stage.hpp"

ASC_PLUGIN("fusion", ASC_SDK_VERSION_STRING, asc::kPassKind, "Graph clean-up and fusion passes") {
  registrar.add_pass(std::make_shared<asc::fusion::IdentityElimination>());
  registrar.add_pass(std::make_shared<asc::fusion::DeadNodeElimination>());
  registrar.add_stage(asc::fusion::optimize_stage());
}
