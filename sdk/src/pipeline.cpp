#include "asc/sdk/pipeline.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// "stage 'onnx.load': " to start a message, or nothing when the stage is unknown.
std::string stage_prefix(const std::string& stage) { return stage.empty() ? std::string() : "stage '" + stage + "': "; }

template <class T> bool parse_number(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

}  // namespace

std::string_view param_type_name(ParamType type) {
  switch (type) {
    case ParamType::String: return "string";
    case ParamType::Int: return "int";
    case ParamType::Float: return "float";
    case ParamType::Bool: return "bool";
    case ParamType::Path: return "path";
    case ParamType::StringList: return "string list";
  }
  return "string";
}

std::string StageParams::get_string(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end())
    throw Error(ErrorCode::ConfigMissingKey,
                stage_prefix(stage_) + "parameter '" + name + "' is missing");
  return it->second;
}

std::int64_t StageParams::get_int(const std::string& name) const {
  const std::string text = trimmed(get_string(name));
  std::int64_t value = 0;
  if (!parse_number(text, value))
    throw Error(ErrorCode::ConfigWrongType, stage_prefix(stage_) +
                                                "parameter '" + name + "' = '" + text + "' is not an integer");
  return value;
}

double StageParams::get_float(const std::string& name) const {
  const std::string text = trimmed(get_string(name));
  double value = 0;
  if (!parse_number(text, value))
    throw Error(ErrorCode::ConfigWrongType, stage_prefix(stage_) +
                                                "parameter '" + name + "' = '" + text + "' is not a number");
  return value;
}

bool StageParams::get_bool(const std::string& name) const {
  const std::string text = lower(trimmed(get_string(name)));
  if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
  if (text == "false" || text == "no" || text == "off" || text == "0") return false;
  throw Error(ErrorCode::ConfigWrongType, stage_prefix(stage_) +
                                              "parameter '" + name + "' = '" + text +
                                              "' is not a boolean (true/false, yes/no, on/off, 1/0)");
}

std::filesystem::path StageParams::get_path(const std::string& name) const {
  return std::filesystem::path(get_string(name));
}

std::vector<std::string> StageParams::get_list(const std::string& name) const {
  const std::string text = get_string(name);
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string item = trimmed(std::string_view(text).substr(start, comma - start));
    if (!item.empty()) items.push_back(std::move(item));
    start = comma + 1;
  }
  return items;
}

Graph& PipelineContext::require_graph(const std::string& stage) {
  if (!graph)
    throw Error(ErrorCode::ConfigMissingKey, "stage '" + stage +
                                                 "' needs a graph, but no earlier stage produced one: put a parser "
                                                 "stage (e.g. onnx.load) before it");
  return *graph;
}

}  // namespace asc
