#include "stage/optimize_stage.hpp"

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <asc/sdk/registry.hpp>

namespace asc::fusion {
namespace {

// The passes to run, in order: the explicit list when given, else every registered pass.
std::vector<const Pass*> select_passes(const Registry& registry, const StageParams& params) {
  std::vector<const Pass*> selected;
  const auto requested = params.has("passes") ? params.get_list("passes") : std::vector<std::string>{};
  if (requested.empty()) {
    for (const auto& registered : registry.passes()) selected.push_back(registered.item.get());
  } else {
    for (const auto& name : requested) {
      const Pass* pass = registry.pass(name);
      if (pass == nullptr) throw Error(ErrorCode::ConfigBadValue, "fusion.optimize: unknown pass '" + name + "'");
      selected.push_back(pass);
    }
  }
  const auto disabled_list = params.has("disabled_passes") ? params.get_list("disabled_passes")
                                                           : std::vector<std::string>{};
  for (const auto& name : disabled_list)
    if (registry.pass(name) == nullptr)
      throw Error(ErrorCode::ConfigBadValue, "fusion.optimize: disabled_passes names unknown pass '" + name + "'");
  const std::set<std::string> disabled(disabled_list.begin(), disabled_list.end());
  std::erase_if(selected, [&](const Pass* pass) { return disabled.count(pass->name()) != 0; });
  return selected;
}

void run_passes(PipelineContext& context, const StageParams& params) {
  Graph& graph = context.require_graph("fusion.optimize");
  const PassContext pass_context{context.registry.ops()};
  const std::size_t before = graph.node_count();
  for (const Pass* pass : select_passes(context.registry, params)) {
    const auto start = std::chrono::steady_clock::now();
    const PassResult result = pass->run(graph, pass_context);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream line;
    line << "pass " << pass->name() << ": match_times=" << result.match_times
         << " effect_times=" << result.effect_times << " (" << ms << " ms)";
    log_info(line.str());
  }
  log_info("fusion.optimize: nodes " + std::to_string(before) + " -> " + std::to_string(graph.node_count()));
}

}  // namespace

StageDefinition optimize_stage() {
  return {"fusion.optimize",
          "Runs graph passes over the current graph (all registered passes by default)",
          {{"passes", ParamType::StringList, false, "", "passes to run, in order (default: every registered pass)"},
           {"disabled_passes", ParamType::StringList, false, "", "passes to skip, by name"}},
          run_passes,
          {}};
}

}  // namespace asc::fusion
