#include "analysis/report_json.hpp"

#include "analysis/op_categories.hpp"
#include "analysis/text_format.hpp"

namespace asc::profiler {
namespace {

using Json = nlohmann::ordered_json;

Json optional_number(const std::optional<double>& value, bool fraction) {
  if (!value) return nullptr;
  return fraction ? round_fraction(*value) : round_us(*value);
}

Json op_summary(const ProfileFacts& facts) {
  Json ops = Json::array();
  for (const OperatorFacts& op : facts.operators)
    ops.push_back({{"op_name", op.op_name},
                   {"op_type", op.op_type},
                   {"device_time", round_us(op.device_us)},
                   {"memory_copy_time", round_us(op.memory_copy_us)},
                   {"ratio", round_fraction(facts.total_us > 0 ? op.device_us / facts.total_us : 0)}});
  return ops;
}

Json top_operators(const ProfileFacts& facts) {
  constexpr std::size_t kTop = 5;
  double us = 0;
  Json names = Json::array();
  for (std::size_t i = 0; i < std::min(kTop, facts.operators.size()); ++i) {
    us += facts.operators[i].device_us;
    names.push_back(facts.operators[i].op_name);
  }
  return {{"count", names.size()},
          {"device_time", round_us(us)},
          {"share", round_fraction(facts.total_us > 0 ? us / facts.total_us : 0)},
          {"op_names", names}};
}

Json type_statistics(const ProfileFacts& facts) {
  Json types = Json::array();
  for (const TypeFacts& type : facts.types)
    types.push_back({{"op_type", type.op_type},
                     {"count", type.count},
                     {"total_time", round_us(type.total_us)},
                     {"mean_time", round_us(type.mean_us)},
                     {"max_time", round_us(type.max_us)},
                     {"min_time", round_us(type.min_us)},
                     {"ratio", round_fraction(type.ratio)}});
  return types;
}

Json pipe_utilization_json(const ProfileFacts& facts) {
  Json pipes;
  for (const auto& [pipe, ratio] : facts.pipes.pipes) pipes[pipe] = optional_number(ratio, true);
  pipes["coverage"] = round_fraction(facts.pipes.coverage);
  return pipes;
}

Json health(const ProfileFacts& facts) {
  Json checks = Json::array();
  for (const HealthCheck& check : facts.health)
    checks.push_back({{"metric", check.metric},
                      {"healthy_when", check.healthy_when},
                      {"value", optional_number(check.value, check.unit == "fraction")},
                      {"unit", check.unit},
                      {"status", check.status},
                      {"basis", check.basis}});
  return checks;
}

Json advice_and_rules(const std::vector<RuleOutcome>& outcomes, Json& rules) {
  Json advice = Json::array();
  rules = Json::array();
  for (const RuleOutcome& outcome : outcomes) {
    for (const Advice& item : outcome.advice)
      advice.push_back({{"rule", item.rule}, {"severity", item.severity}, {"message", item.message}});
    Json thresholds;
    for (const RuleThreshold& threshold : outcome.rule->thresholds)
      thresholds[threshold.name] = threshold.value;
    rules.push_back({{"id", outcome.rule->id},
                     {"description", outcome.rule->description},
                     {"thresholds", thresholds},
                     {"fired", !outcome.advice.empty()}});
  }
  return advice;
}

Json timeline(const ProfileFacts& facts) {
  std::vector<std::size_t> counts(facts.timeline.lanes.size(), 0);
  for (const TaskFacts& task : facts.tasks) ++counts[task.lane];
  Json lanes = Json::array();
  for (std::size_t i = 0; i < facts.timeline.lanes.size(); ++i) {
    const Lane& lane = facts.timeline.lanes[i];
    lanes.push_back(
        {{"name", lane.name}, {"stream_id", lane.stream_id}, {"core", lane.core}, {"tasks", counts[i]}});
  }
  return {{"origin", round_us(facts.timeline.origin_us)},
          {"span", round_us(facts.timeline.span_us)},
          {"start_times",
           facts.timeline.measured ? "measured" : "not measured: tasks laid end to end per stream"},
          {"lanes", lanes}};
}

Json tasks(const ProfileFacts& facts) {
  Json list = Json::array();
  for (const TaskFacts& task : facts.tasks) {
    const ProfileEvent& event = *task.event;
    list.push_back({{"op_name", event.op_name},
                    {"op_type", event.op_type},
                    {"task_type", event.task_type},
                    {"category", task.category},
                    {"stream_id", event.stream_id},
                    {"task_id", event.task_id},
                    {"lane", task.lane},
                    {"start_time", round_us(task.start_us)},
                    {"device_time", round_us(event.duration_us)},
                    {"wait_time", round_us(event.wait_us)},
                    {"block_dim", event.block_dim},
                    {"memory_copy_time", round_us(task.memory_copy.us)},
                    {"memory_copy_basis", task.memory_copy.basis},
                    {"input_shapes", event.input_shapes},
                    {"input_data_types", event.input_dtypes},
                    {"input_formats", event.input_formats},
                    {"output_shapes", event.output_shapes},
                    {"output_data_types", event.output_dtypes},
                    {"output_formats", event.output_formats}});
    if (!event.provenance.empty()) list.back()["provenance"] = event.provenance;
  }
  return list;
}

}  // namespace

Json build_report(const ProfileFacts& facts, const std::vector<RuleOutcome>& outcomes, const Json& source) {
  Json report;
  report["model_name"] = facts.model_name.empty() ? "unknown" : facts.model_name;
  report["soc_version"] = facts.soc_version.empty() ? "unknown" : facts.soc_version;
  report["total_time"] = round_us(facts.total_us);
  report["op_summary"] = op_summary(facts);
  report["memory_copy_time"] = round_us(facts.memory_copy_us);
  report["compute_time_ratio"] = round_fraction(facts.compute_time_ratio);
  report["operator_count"] = facts.operators.size();
  report["task_count"] = facts.tasks.size();
  report["top_operators"] = top_operators(facts);
  report["op_type_statistics"] = type_statistics(facts);
  report["pipe_utilization"] = pipe_utilization_json(facts);
  report["health"] = health(facts);
  Json rules;
  report["advice"] = advice_and_rules(outcomes, rules);
  report["rules"] = rules;
  report["memory_copy_basis"] = facts.memory_copy_basis;
  report["timeline"] = timeline(facts);
  report["tasks"] = tasks(facts);
  if (!source.is_null()) report["source"] = source;
  report["fields"] = report_field_docs();
  return report;
}

}  // namespace asc::profiler
