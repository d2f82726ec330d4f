#include "stage/optimize_stage.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>
#include <asc/sdk/log.hpp>
#include <asc/sdk/registry.hpp>

#include "stage/fusion_result.hpp"
#include "stage/graph_text.hpp"
#include "stage/kernel_count.hpp"
#include "stage/pass_plan.hpp"

namespace asc::fusion {
namespace {

constexpr const char* kOptimizeStage = "fusion.optimize";
using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string format_ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", ms);
  return text;
}

// Pipelines pass "" for an unset optional parameter (a variable defaulting to empty).
bool given(const StageParams& params, const std::string& name) {
  return params.has(name) && !params.get_string(name).empty();
}

// Pass names from dump_after, checked against the plan; dump_dir is then required.
std::set<std::string> dump_requests(const StageParams& params, const std::vector<PlannedPass>& plan) {
  std::set<std::string> names;
  if (!params.has("dump_after")) return names;
  for (const auto& name : params.get_list("dump_after")) {
    const bool planned = std::any_of(plan.begin(), plan.end(), [&](const PlannedPass& p) { return p.pass->name() == name; });
    if (!planned)
      throw Error(ErrorCode::ConfigBadValue, std::string(kOptimizeStage) + ": 'dump_after' names '" + name +
                                                 "', which is not among the passes of this run");
    names.insert(name);
  }
  if (!names.empty() && !given(params, "dump_dir"))
    throw Error(ErrorCode::ConfigMissingKey, std::string(kOptimizeStage) + ": 'dump_after' needs 'dump_dir'");
  return names;
}

void dump_graph(const Graph& graph, const std::filesystem::path& directory, std::size_t index, const PlannedPass& planned) {
  std::filesystem::create_directories(directory);
  char prefix[8];
  std::snprintf(prefix, sizeof prefix, "%02zu_", index + 1);
  const std::filesystem::path file = directory / (prefix + planned.pass->name() + ".txt");
  std::string header = "# after " + planned.pass->name() + (planned.enabled ? "" : " (not run: " + planned.disabled_by + ")") + "\n";
  write_text_atomically(file, header + graph_to_text(graph));
  log_info(std::string(kOptimizeStage) + ": wrote " + file.string());
}

void log_pass(const PassRecord& record) {
  std::ostringstream line;
  line << kOptimizeStage << ": " << record.name << " [" << record.category << "] ";
  if (!record.ran) line << "skipped (" << record.disabled_by << ")";
  else
    line << "match_times=" << record.result.match_times << " effect_times=" << record.result.effect_times << " in "
         << format_ms(record.milliseconds) << ", " << record.nodes_after << " nodes";
  log_info(line.str());
}

void run(PipelineContext& context, const StageParams& params) {
  Graph& graph = context.require_graph(kOptimizeStage);
  const std::vector<PlannedPass> plan = plan_passes(context.registry, params);
  const std::set<std::string> dumps = dump_requests(params, plan);

  FusionReport report;
  report.graph = graph.name;
  report.kernels_before = count_kernels(graph);
  report.nodes_before = graph.node_count();
  const PassContext pass_context{context.registry.ops()};
  const Clock::time_point start = Clock::now();
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const PlannedPass& planned = plan[i];
    PassRecord record{planned.pass->name(), planned.pass->category(), planned.enabled, planned.disabled_by, {}, 0, 0};
    if (planned.enabled) {
      const Clock::time_point pass_start = Clock::now();
      record.result = planned.pass->run(graph, pass_context);
      record.milliseconds = milliseconds_since(pass_start);
    }
    record.nodes_after = graph.node_count();
    log_pass(record);
    report.passes.push_back(std::move(record));
    if (dumps.count(planned.pass->name()) != 0) dump_graph(graph, params.get_path("dump_dir"), i, planned);
  }
  report.milliseconds = milliseconds_since(start);
  report.kernels_after = count_kernels(graph);
  report.nodes_after = graph.node_count();
  log_info(std::string(kOptimizeStage) + ": kernels " + std::to_string(report.kernels_before) + " -> " +
           std::to_string(report.kernels_after) + " (nodes " + std::to_string(report.nodes_before) + " -> " +
           std::to_string(report.nodes_after) + ") in " + format_ms(report.milliseconds));

  if (given(params, "result_file")) {
    const std::filesystem::path file = params.get_path("result_file");
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    write_text_atomically(file, fusion_result_json(report));
    context.artifacts["fusion_result"] = file;
    log_info(std::string(kOptimizeStage) + ": wrote " + file.string());
  }
}

}  // namespace

StageDefinition optimize_stage() {
  StageDefinition stage;
  stage.name = kOptimizeStage;
  stage.description = "run clean-up and fusion passes over the graph, report kernel counts and fusion_result.json";
  stage.params = {
      {"passes", ParamType::StringList, false, "", "passes to run, in order (default: every registered pass)"},
      {"disabled_passes", ParamType::StringList, false, "", "passes not to run, by name"},
      {"fusion_switch_file", ParamType::Path, false, "",
       "ATC fusion switch file: 'Pass:off' lines, {\"Switch\":{\"GraphFusion\":{...},\"UBFusion\":{...}}} or {switch:{...}}"},
      {"enable_scope_fusion", ParamType::Bool, false, "false", "run scope fusions (AttentionFusion), as ATC's --enable_scope_fusion"},
      {"result_file", ParamType::Path, false, "", "write fusion_result.json here (ATC's layout plus an 'asc' section)"},
      {"dump_after", ParamType::StringList, false, "", "write the graph as text after these passes (needs dump_dir)"},
      {"dump_dir", ParamType::Path, false, "", "directory for dump_after's <NN>_<Pass>.txt files"},
  };
  stage.run = run;
  return stage;
}

}  // namespace asc::fusion
