#include "stage/pass_plan.hpp"

#include <algorithm>

#include <asc/sdk/error.hpp>

#include "pass_catalog.hpp"
#include "stage/switch_file.hpp"

namespace asc::fusion {
namespace {

constexpr const char* kPassPlanStage = "fusion.optimize";
constexpr const char* kBuiltinPlugin = "fusion";  // this plugin: the built-in passes

std::vector<std::string> list_param(const StageParams& params, const std::string& name) {
  return params.has(name) ? params.get_list(name) : std::vector<std::string>{};
}

std::string registered_names(const Registry& registry) {
  std::string names;
  for (const auto& registered : registry.passes()) names += (names.empty() ? "" : ", ") + registered.item->name();
  return names;
}

const Pass* require_pass(const Registry& registry, const std::string& name, const char* param) {
  const Pass* pass = registry.pass(name);
  if (pass == nullptr)
    throw Error(ErrorCode::ConfigBadValue, std::string(kPassPlanStage) + ": '" + param + "' names unknown pass '" + name +
                                               "'; registered passes: " + registered_names(registry));
  return pass;
}

void disable(PlannedPass& planned, std::string reason) {
  if (!planned.enabled) return;  // the first reason found is the strongest (see plan_passes)
  planned.enabled = false;
  planned.disabled_by = std::move(reason);
}

}  // namespace

std::vector<PlannedPass> plan_passes(const Registry& registry, const StageParams& params) {
  const bool scope_fusion = params.has("enable_scope_fusion") && !params.get_string("enable_scope_fusion").empty() &&
                            params.get_bool("enable_scope_fusion");
  std::vector<PlannedPass> plan;
  const auto requested = list_param(params, "passes");
  for (const auto& name : requested) {
    const Pass* pass = require_pass(registry, name, "passes");
    if (is_scope_fusion(name) && !scope_fusion)
      throw Error(ErrorCode::ConfigBadValue, std::string(kPassPlanStage) + ": 'passes' lists " + name +
                                                 ", a scope fusion pass: it runs only with enable_scope_fusion: true");
    plan.push_back({pass, true, ""});
  }
  if (requested.empty()) {
    // Other plugins' passes (custom fusion rules) first, whatever the load order: a rule for
    // Conv -> BatchNormalization -> Relu must see the chain before ConvBatchNorm folds it.
    for (const bool builtin : {false, true})
      for (const auto& registered : registry.passes())
        if ((registered.plugin == kBuiltinPlugin) == builtin) plan.push_back({registered.item.get(), true, ""});
  }

  // Strongest reason first: disabled_passes, then the switch file, then the scope setting.
  for (const auto& name : list_param(params, "disabled_passes")) {
    const Pass* pass = require_pass(registry, name, "disabled_passes");
    for (auto& planned : plan)
      if (planned.pass == pass) disable(planned, "disabled_passes");
  }
  if (params.has("fusion_switch_file") && !params.get_string("fusion_switch_file").empty()) {
    std::vector<KnownPass> known;
    for (const auto& registered : registry.passes())
      known.push_back({registered.item->name(), registered.item->category(), registered.plugin == kBuiltinPlugin});
    const auto path = params.get_path("fusion_switch_file");
    const SwitchSettings settings = read_switch_file(path, known);
    for (auto& planned : plan) {
      const auto it = settings.find(planned.pass->name());
      if (it != settings.end() && !it->second.enabled) disable(planned, "fusion_switch_file " + it->second.origin);
    }
  }
  for (auto& planned : plan)
    if (is_scope_fusion(planned.pass->name()) && !scope_fusion) disable(planned, "enable_scope_fusion is false");
  return plan;
}

}  // namespace asc::fusion
