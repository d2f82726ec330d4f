// `asc stages`: every stage the loaded plugins offer, with its parameters and their docs.
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "command_line.hpp"
#include "commands.hpp"

namespace asc::cli {
namespace {

const CommandSyntax kStagesSyntax{
    "asc stages [--plugin-dir DIR]... [--log LEVEL]",
    "Lists every pipeline stage the loaded plugins offer, with its parameters: type, whether it is\n"
    "required or its default, and what it means. Use the names under 'stage:' in a pipeline."};

std::string requirement(const ParamSpec& spec) {
  if (spec.required) return "required";
  if (spec.default_value.empty()) return "optional";
  return "default " + spec.default_value;
}

void print_stage(const StageDefinition& stage) {
  std::cout << stage.name << "  [plugin " << stage.plugin << "]\n";
  if (!stage.description.empty()) std::cout << "    " << stage.description << '\n';
  std::size_t name_width = 0, detail_width = 0;
  std::vector<std::string> details;
  for (const auto& spec : stage.params) {
    details.push_back(std::string(param_type_name(spec.type)) + ", " + requirement(spec));
    name_width = std::max(name_width, spec.name.size());
    detail_width = std::max(detail_width, details.back().size());
  }
  for (std::size_t i = 0; i < stage.params.size(); ++i)
    std::cout << "    " << std::left << std::setw(static_cast<int>(name_width)) << stage.params[i].name << "  "
              << std::setw(static_cast<int>(detail_width)) << details[i] << "  " << stage.params[i].doc << '\n';
}

}  // namespace

int stages_command(const std::vector<std::string>& arguments) {
  PluginOptions plugin_options;
  po::options_description options("Options");
  add_plugin_options(options, plugin_options);
  po::variables_map values;
  if (!parse_arguments(kStagesSyntax, arguments, options, {}, {}, values)) return 0;

  const auto host = load_plugins(plugin_options);
  std::vector<const StageDefinition*> stages;
  for (const auto& stage : host->registry().stages()) stages.push_back(&stage);
  std::sort(stages.begin(), stages.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
  if (stages.empty()) {
    std::cout << "No stages: no loaded plugin offers any (`asc plugins` shows what was loaded).\n";
    return 0;
  }
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (i > 0) std::cout << '\n';
    print_stage(*stages[i]);
  }
  return 0;
}

}  // namespace asc::cli
