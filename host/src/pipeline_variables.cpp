#include "asc/host/pipeline_variables.hpp"

#include <algorithm>

#include "asc/host/close_names.hpp"
#include "asc/sdk/error.hpp"

namespace asc::host {
namespace {

std::vector<std::string> declared_names(const PipelineDocument& document) {
  std::vector<std::string> names;
  for (const auto& variable : document.variables) names.push_back(variable.name);
  return names;
}

}  // namespace

VariableAssignment parse_assignment(std::string_view argument) {
  const auto equals = argument.find('=');
  if (equals == std::string_view::npos || equals == 0)
    throw Error(ErrorCode::UsageError,
                "--set '" + std::string(argument) + "' is not of the form name=value (for example --set model=net.onnx)");
  return VariableAssignment{std::string(argument.substr(0, equals)), std::string(argument.substr(equals + 1))};
}

std::map<std::string, std::string> resolve_variables(const PipelineDocument& document,
                                                     const std::vector<VariableAssignment>& assignments) {
  const auto names = declared_names(document);
  std::map<std::string, std::string> values;
  for (const auto& variable : document.variables)
    if (variable.default_value) values[variable.name] = *variable.default_value;
  for (const auto& assignment : assignments) {
    if (std::find(names.begin(), names.end(), assignment.name) == names.end())
      throw Error(ErrorCode::ConfigUnknownVariable,
                  located(document.variables_where,
                          "--set " + assignment.name + ": the pipeline declares no variable '" + assignment.name + "'" +
                              did_you_mean(assignment.name, names) + "; declared: " +
                              (names.empty() ? std::string("none") : join(names))));
    values[assignment.name] = assignment.value;
  }
  for (const auto& variable : document.variables)
    if (values.count(variable.name) == 0)
      throw Error(ErrorCode::ConfigMissingKey,
                  located(variable.where, "variable '" + variable.name + "' is required; set it with --set " +
                                              variable.name + "=VALUE"));
  return values;
}

std::string substitute_variables(std::string_view text, const std::map<std::string, std::string>& values,
                                 const SourceLocation& where) {
  std::string result;
  std::size_t position = 0;
  while (position < text.size()) {
    if (text.substr(position, 3) == "$${") {
      result += "${";
      position += 3;
      continue;
    }
    if (text.substr(position, 2) != "${") {
      result += text[position++];
      continue;
    }
    const auto close = text.find('}', position + 2);
    if (close == std::string_view::npos)
      throw Error(ErrorCode::ConfigBadValue,
                  located(where, "'${' without a closing '}' in \"" + std::string(text) + "\" (write $${ for a literal ${)"));
    const std::string name(text.substr(position + 2, close - position - 2));
    const auto value = values.find(name);
    if (value == values.end()) {
      std::vector<std::string> names;
      for (const auto& [known, unused] : values) names.push_back(known);
      throw Error(ErrorCode::ConfigUnknownVariable,
                  located(where, "unknown variable '${" + name + "}'" + did_you_mean(name, names) +
                                     "; declare it under 'variables:'"));
    }
    result += value->second;
    position = close + 1;
  }
  return result;
}

}  // namespace asc::host
