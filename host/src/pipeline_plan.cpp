#include "asc/host/pipeline_plan.hpp"

#include <algorithm>

#include "asc/host/close_names.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/registry.hpp"

namespace asc::host {
namespace {

std::string stage_title(const StageEntry& entry) {
  return entry.label == entry.stage ? "stage '" + entry.stage + "'" : "stage '" + entry.label + "' (" + entry.stage + ")";
}

const StageDefinition& find_stage(const StageEntry& entry, const PipelineDocument& document, const Registry& registry) {
  const StageDefinition* definition = registry.stage(entry.stage);
  if (definition == nullptr) {
    std::vector<std::string> names;
    for (const auto& stage : registry.stages()) names.push_back(stage.name);
    const std::string listing = names.empty() ? "; the loaded plugins offer no stages"
                                              : "; `asc stages` lists the " + std::to_string(names.size()) +
                                                    " stages of the loaded plugins";
    throw Error(ErrorCode::ConfigUnknownStage,
                located(entry.stage_where, "unknown stage '" + entry.stage + "'" + did_you_mean(entry.stage, names) + listing));
  }
  // Keeps 'plugins:' complete, so that a missing plugin is reported as such, not as a stage.
  if (std::find(document.plugins.begin(), document.plugins.end(), definition->plugin) == document.plugins.end())
    throw Error(ErrorCode::ConfigUnknownStage,
                located(entry.stage_where, "stage '" + entry.stage + "' comes from plugin '" + definition->plugin +
                                               "', which the pipeline does not list under 'plugins:' (" +
                                               document.plugins_where.to_string() + ")"));
  return *definition;
}

std::string expected_form(ParamType type) {
  switch (type) {
    case ParamType::Int: return "an integer";
    case ParamType::Float: return "a number";
    case ParamType::Bool: return "true or false";
    default: return "text";
  }
}

// Asks StageParams' own getters, so that the check accepts exactly what the stage will read.
void check_type(const ParamSpec& spec, const std::string& value, const StageEntry& entry, const SourceLocation& where) {
  if (spec.type != ParamType::Int && spec.type != ParamType::Float && spec.type != ParamType::Bool) return;
  StageParams probe;
  probe.set_stage_name(entry.label);
  probe.set(spec.name, value);
  try {
    if (spec.type == ParamType::Int) probe.get_int(spec.name);
    if (spec.type == ParamType::Float) probe.get_float(spec.name);
    if (spec.type == ParamType::Bool) probe.get_bool(spec.name);
  } catch (const std::exception&) {
    throw Error(ErrorCode::ConfigWrongType,
                located(where, "parameter '" + spec.name + "' of " + stage_title(entry) + " must be " +
                                   expected_form(spec.type) + ", got \"" + value + "\""));
  }
}

PlannedStage plan_stage(const StageEntry& entry, const PipelineDocument& document, const Registry& registry,
                        const std::map<std::string, std::string>& variables) {
  const StageDefinition& definition = find_stage(entry, document, registry);
  PlannedStage planned{&definition, {}, entry.label, entry.where, entry.disabled};
  planned.params.set_stage_name(entry.label);

  std::vector<std::string> names;
  for (const auto& spec : definition.params) names.push_back(spec.name);
  for (const auto& argument : entry.arguments) {
    const auto spec = std::find_if(definition.params.begin(), definition.params.end(),
                                   [&](const ParamSpec& p) { return p.name == argument.name; });
    if (spec == definition.params.end())
      throw Error(ErrorCode::ConfigUnknownKey,
                  located(argument.key_where,
                          stage_title(entry) + " has no parameter '" + argument.name + "'" +
                              did_you_mean(argument.name, names) +
                              (names.empty() ? "; it takes none" : "; its parameters: " + join(names))));
    std::string value = substitute_variables(argument.value, variables, argument.value_where);
    check_type(*spec, value, entry, argument.value_where);
    planned.params.set(argument.name, std::move(value));
  }
  for (const auto& spec : definition.params) {
    if (planned.params.has(spec.name)) continue;
    if (spec.required)
      throw Error(ErrorCode::ConfigMissingKey,
                  located(entry.where, stage_title(entry) + " needs parameter '" + spec.name + "' under 'with:'" +
                                           (spec.doc.empty() ? "" : " (" + spec.doc + ")")));
    if (!spec.default_value.empty()) planned.params.set(spec.name, spec.default_value);
  }
  return planned;
}

}  // namespace

PipelinePlan plan_pipeline(const PipelineDocument& document, const PluginHost& plugins,
                           const std::vector<VariableAssignment>& assignments) {
  const auto variables = resolve_variables(document, assignments);
  try {
    plugins.require(document.plugins);
  } catch (const Error& missing) {
    throw Error(missing.code(), located(document.plugins_where, missing.message()));
  }
  PipelinePlan plan{document.name, {}};
  for (const auto& entry : document.stages)
    plan.stages.push_back(plan_stage(entry, document, plugins.registry(), variables));
  return plan;
}

}  // namespace asc::host
