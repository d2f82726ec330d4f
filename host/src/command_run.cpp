// `asc run PIPELINE.yaml`: validates the whole pipeline against the loaded plugins, then runs it.

#include "asc/host/pipeline_document.hpp"
#include "asc/host/pipeline_plan.hpp"
#include "asc/host/pipeline_runner.hpp"
#include "asc/host/pipeline_variables.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/log.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace asc::cli {
namespace {

const CommandSyntax kRunSyntax{
    "asc run PIPELINE.yaml [--set NAME=VALUE]... [--plugin-dir DIR]... [--log LEVEL]",
    "Runs the stages of a YAML pipeline in order. The whole pipeline (keys, stages, parameters,\n"
    "variables, plugins) is checked before any stage runs. docs/pipelines.md describes the format."};

}  // namespace

int run_command(const std::vector<std::string>& arguments) {
  PluginOptions plugin_options;
  std::string pipeline;
  std::vector<std::string> assignments_text;
  po::options_description options("Options");
  options.add_options()("set", po::value(&assignments_text)->composing()->value_name("NAME=VALUE"),
                        "set a pipeline variable (repeatable; overrides its default)");
  add_plugin_options(options, plugin_options);
  po::options_description hidden;
  hidden.add_options()("pipeline", po::value(&pipeline), "the pipeline file");
  po::positional_options_description positional;
  positional.add("pipeline", 1);
  po::variables_map values;
  if (!parse_arguments(kRunSyntax, arguments, options, hidden, positional, values)) return 0;
  if (pipeline.empty())
    throw Error(ErrorCode::UsageError, "asc run needs a pipeline file (usage: " + kRunSyntax.usage + ")");

  std::vector<host::VariableAssignment> assignments;
  for (const auto& text : assignments_text) assignments.push_back(host::parse_assignment(text));
  const auto document = host::load_pipeline_document(pipeline);

  const auto plugins = load_plugins(plugin_options);
  const auto plan = host::plan_pipeline(document, *plugins, assignments);
  PipelineContext context{plugins->registry()};
  context.show_progress = stderr_is_terminal();
  host::run_pipeline(plan, context);
  return 0;
}

}  // namespace asc::cli
