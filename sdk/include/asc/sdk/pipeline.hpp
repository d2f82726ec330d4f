// Pipeline stages: the functions plugins offer to YAML pipelines, and the context they share.
//
// A stage is a named function ("onnx.load", "reference.run") with declared parameters. The host
// checks a pipeline's parameters against the declaration (unknown keys, wrong types, missing
// required ones are errors citing file:line:column) before any stage runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "asc/sdk/backend.hpp"
#include "asc/sdk/graph.hpp"
#include "asc/sdk/tensor.hpp"

namespace asc {

class Registry;

enum class ParamType : std::uint8_t { String, Int, Float, Bool, Path, StringList };
std::string_view param_type_name(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::String;
  bool required = false;
  std::string default_value;  // as text; used when not required and not given
  std::string doc;
};

// Stage parameters after variable substitution, checked against the stage's ParamSpecs.
// Scalars are kept as text and converted by the typed getters; lists are comma-separated text
// or YAML sequences.
class StageParams {
 public:
  void set(const std::string& name, std::string value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const std::map<std::string, std::string>& all() const noexcept { return values_; }

  // Throws EE5004 / EE5003 naming the parameter (and the stage) when absent or unconvertible.
  std::string get_string(const std::string& name) const;
  std::int64_t get_int(const std::string& name) const;
  double get_float(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  std::filesystem::path get_path(const std::string& name) const;
  // Comma-separated items, empty items dropped.
  std::vector<std::string> get_list(const std::string& name) const;
  void set_stage_name(std::string stage) { stage_ = std::move(stage); }

 private:
  std::map<std::string, std::string> values_;
  std::string stage_;
};

// Shared by the stages of one pipeline run.
struct PipelineContext {
  const Registry& registry;
  std::optional<Graph> graph;  // set by a parser stage, rewritten by pass stages
  TensorMap tensors;           // named tensors (inputs, outputs, goldens, ...)
  std::map<std::string, std::filesystem::path> artifacts;  // files stages produced, by role
  ProfileTrace profile;        // events collected by backends when profiling is on
  bool show_progress = false;  // stderr is a terminal: stages may draw progress

  // The current graph; throws EE5004 telling which stage should have produced it.
  Graph& require_graph(const std::string& stage);
};

using StageFunction = std::function<void(PipelineContext&, const StageParams&)>;

struct StageDefinition {
  std::string name;  // "<plugin>.<function>"
  std::string description;
  std::vector<ParamSpec> params;
  StageFunction run;
  std::string plugin;  // filled in by the registry
};

}  // namespace asc
