// A pipeline file as written: the YAML read and checked for structure (known keys, right
// types), with every value's position kept for error messages. Nothing here knows which stages
// exist; pipeline_plan.hpp checks the document against the loaded plugins.
//
//   name: run_reference
//   description: Run a model on the reference backend
//   plugins: [parser_onnx, ops_builtin, backend_reference]
//   variables:            # name: default; ~ (null) means required
//     model: ~
//   stages:
//     - stage: onnx.load
//       name: load          # optional label for messages
//       with: {model: "${model}"}
//       disabled: false     # optional
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asc/host/source_location.hpp"

namespace asc::host {

struct VariableDeclaration {
  std::string name;
  std::optional<std::string> default_value;  // std::nullopt: required (declared as ~)
  SourceLocation where;
};

struct StageArgument {
  std::string name;
  std::string value;  // scalars as written; sequences joined with ','
  SourceLocation key_where;
  SourceLocation value_where;
};

struct StageEntry {
  std::string stage;  // a StageDefinition name
  SourceLocation stage_where;
  std::string label;  // `name:`, or the stage name when absent
  std::vector<StageArgument> arguments;  // `with:`, in file order
  bool disabled = false;
  SourceLocation where;  // the entry itself
};

struct PipelineDocument {
  std::filesystem::path file;
  std::string name;
  std::string description;
  std::vector<std::string> plugins;
  SourceLocation plugins_where;  // the list (or the top of the file when absent)
  std::vector<VariableDeclaration> variables;
  SourceLocation variables_where;  // the mapping (or the top of the file when absent)
  std::vector<StageEntry> stages;
};

// Reads `file` (EE4001/EE4002) and parses it. Throws asc::Error citing file:line:column:
// EE5001 syntax, EE5002 unknown key, EE5003 wrong type, EE5004 missing key, EE5007 bad value.
PipelineDocument load_pipeline_document(const std::filesystem::path& file);
// The same from text; `file` only names the origin in messages.
PipelineDocument parse_pipeline_document(std::string_view text, const std::filesystem::path& file);

}  // namespace asc::host
