// The passes this plugin provides, in the order `fusion.optimize` runs them by default:
// clean-ups first (so fusions see a tidy graph), graph fusions, UB fusions (which absorb what
// the graph fusions produce: activations after fused products, leftover elementwise chains),
// and a final dead-node sweep.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

std::vector<std::shared_ptr<const Pass>> builtin_passes();

// Scope fusions (whole sub-networks such as attention) run only with enable_scope_fusion, as
// ATC's scope fusion passes do.
bool is_scope_fusion(const std::string& pass_name);

}  // namespace asc::fusion
