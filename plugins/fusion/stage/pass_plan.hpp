// Which passes `fusion.optimize` runs, in what order, and why any are off. The order is the
// `passes` parameter when given, else every other plugin's pass (custom fusion rules), then this
// plugin's built-in passes, each in registration order. A pass is
// off when disabled_passes names it, when the fusion switch file turns it off, or when it is a
// scope fusion and enable_scope_fusion is false (a switch file cannot turn a scope fusion on).
#pragma once

#include <string>
#include <vector>

#include <asc/sdk/pass.hpp>
#include <asc/sdk/pipeline.hpp>
#include <asc/sdk/registry.hpp>

namespace asc::fusion {

struct PlannedPass {
  const Pass* pass = nullptr;
  bool enabled = true;
  std::string disabled_by;
};

// Throws EE5007 for unknown pass names (passes, disabled_passes, switch file) and for a scope
// fusion listed in `passes` without enable_scope_fusion; EE5001 for a malformed switch file.
std::vector<PlannedPass> plan_passes(const Registry& registry, const StageParams& params);

}  // namespace asc::fusion
