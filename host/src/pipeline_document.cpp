#include "asc/host/pipeline_document.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "asc/host/close_names.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/io.hpp"

namespace asc::host {
namespace fs = std::filesystem;
namespace {

constexpr std::array kTopLevelKeys{"name", "description", "plugins", "variables", "stages"};
constexpr std::array kStageKeys{"stage", "name", "with", "disabled"};

std::string describe_kind(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Scalar: return "a value";
    default: return "empty (null)";
  }
}

bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

struct Entry {
  std::string key;
  SourceLocation key_where;
  YAML::Node value;
  SourceLocation value_where;
};

// Reads YAML nodes of one file, turning each problem into an asc::Error that cites it.
class Reader {
 public:
  explicit Reader(fs::path file) : file_(std::move(file)) {}

  SourceLocation top() const { return SourceLocation{file_, 1, 1}; }

  SourceLocation at(const YAML::Node& node, const SourceLocation& fallback) const {
    const YAML::Mark mark = node.Mark();
    if (mark.is_null() || mark.line < 0) return fallback;
    return SourceLocation{file_, mark.line + 1, mark.column + 1};
  }

  [[noreturn]] void fail(ErrorCode code, const SourceLocation& where, const std::string& message) const {
    throw Error(code, located(where, message));
  }

  // The entries of a mapping, in file order, after refusing duplicate and unknown keys.
  template <std::size_t N>
  std::vector<Entry> mapping(const YAML::Node& node, const SourceLocation& where, const std::string& what,
                             const std::array<const char*, N>& allowed) const {
    if (!node.IsMap())
      fail(ErrorCode::ConfigWrongType, where,
           what + " must be a mapping with keys " + allowed_list(allowed) + ", not " + describe_kind(node));
    const std::vector<std::string> allowed_keys(allowed.begin(), allowed.end());
    std::vector<Entry> entries = any_mapping(node, where, what);
    for (const auto& entry : entries)
      if (std::find(allowed_keys.begin(), allowed_keys.end(), entry.key) == allowed_keys.end())
        fail(ErrorCode::ConfigUnknownKey, entry.key_where,
             "unknown key '" + entry.key + "' in " + what + did_you_mean(entry.key, allowed_keys) +
                 "; allowed keys: " + allowed_list(allowed));
    return entries;
  }

  // A mapping whose keys are free (variables, stage arguments); duplicates are still refused.
  std::vector<Entry> any_mapping(const YAML::Node& node, const SourceLocation& where, const std::string& what) const {
    if (!node.IsMap()) fail(ErrorCode::ConfigWrongType, where, what + " must be a mapping, not " + describe_kind(node));
    std::vector<Entry> entries;
    for (const auto& pair : node) {
      const SourceLocation key_where = at(pair.first, where);
      if (!pair.first.IsScalar())
        fail(ErrorCode::ConfigWrongType, key_where, "keys in " + what + " must be plain names, not " + describe_kind(pair.first));
      const std::string key = pair.first.Scalar();
      for (const auto& earlier : entries)
        if (earlier.key == key)
          fail(ErrorCode::ConfigSyntax, key_where,
               "duplicate key '" + key + "' in " + what + " (first at " + earlier.key_where.to_string() + ")");
      // yaml-cpp places an empty (null) value at the next token, which may be lines below.
      const SourceLocation value_where = pair.second.IsNull() ? key_where : at(pair.second, key_where);
      entries.push_back(Entry{key, key_where, pair.second, value_where});
    }
    return entries;
  }

  std::string text(const Entry& entry, const std::string& what) const {
    if (!entry.value.IsScalar())
      fail(ErrorCode::ConfigWrongType, entry.value_where,
           what + " must be a single value, not " + describe_kind(entry.value));
    return entry.value.Scalar();
  }

  // A scalar, or a sequence of scalars joined with ','.
  std::string text_or_list(const Entry& entry, const std::string& what) const {
    if (!entry.value.IsSequence()) return text(entry, what);
    std::string joined;
    for (std::size_t i = 0; i < entry.value.size(); ++i) {
      const YAML::Node item = entry.value[i];
      if (!item.IsScalar())
        fail(ErrorCode::ConfigWrongType, at(item, entry.value_where),
             "item " + std::to_string(i + 1) + " of " + what + " must be a single value, not " + describe_kind(item));
      if (i > 0) joined += ',';
      joined += item.Scalar();
    }
    return joined;
  }

  bool boolean(const Entry& entry, const std::string& what) const {
    bool value = false;
    if (!entry.value.IsScalar() || !YAML::convert<bool>::decode(entry.value, value))
      fail(ErrorCode::ConfigWrongType, entry.value_where, what + " must be true or false");
    return value;
  }

  template <std::size_t N>
  static std::string allowed_list(const std::array<const char*, N>& allowed) {
    return join(std::vector<std::string>(allowed.begin(), allowed.end()));
  }

 private:
  fs::path file_;
};

const Entry* find(const std::vector<Entry>& entries, std::string_view key) {
  for (const auto& entry : entries)
    if (entry.key == key) return &entry;
  return nullptr;
}

std::vector<std::string> read_plugins(const Reader& reader, const Entry& entry) {
  if (!entry.value.IsSequence())
    reader.fail(ErrorCode::ConfigWrongType, entry.value_where,
                "'plugins' must be a sequence of plugin names, such as [parser_onnx, ops_builtin], not " +
                    describe_kind(entry.value));
  std::vector<std::string> plugins;
  for (std::size_t i = 0; i < entry.value.size(); ++i) {
    const YAML::Node item = entry.value[i];
    const SourceLocation where = reader.at(item, entry.value_where);
    if (!item.IsScalar() || item.Scalar().empty())
      reader.fail(ErrorCode::ConfigWrongType, where, "item " + std::to_string(i + 1) + " of 'plugins' must be a plugin name");
    plugins.push_back(item.Scalar());
  }
  return plugins;
}

std::vector<VariableDeclaration> read_variables(const Reader& reader, const Entry& entry) {
  std::vector<VariableDeclaration> variables;
  for (const auto& variable : reader.any_mapping(entry.value, entry.value_where, "'variables'")) {
    if (!is_identifier(variable.key))
      reader.fail(ErrorCode::ConfigBadValue, variable.key_where,
                  "variable name '" + variable.key + "' must be letters, digits and '_', not starting with a digit");
    VariableDeclaration declaration{variable.key, std::nullopt, variable.key_where};
    if (!variable.value.IsNull())
      declaration.default_value = reader.text(variable, "the default of variable '" + variable.key + "'");
    variables.push_back(std::move(declaration));
  }
  return variables;
}

StageEntry read_stage(const Reader& reader, const YAML::Node& node, const SourceLocation& where, std::size_t index) {
  const std::string what = "stage " + std::to_string(index + 1);
  const auto entries = reader.mapping(node, where, what, kStageKeys);
  StageEntry stage;
  stage.where = where;
  const Entry* name = find(entries, "stage");
  if (name == nullptr)
    reader.fail(ErrorCode::ConfigMissingKey, where,
                what + " has no 'stage' key (the stage to run, such as onnx.load; `asc stages` lists them)");
  stage.stage = reader.text(*name, "'stage' of " + what);
  stage.stage_where = name->value_where;
  if (const Entry* label = find(entries, "name")) {
    stage.label = reader.text(*label, "'name' of " + what);
  } else {
    stage.label = stage.stage;
  }
  if (const Entry* disabled = find(entries, "disabled")) stage.disabled = reader.boolean(*disabled, "'disabled' of " + what);
  if (const Entry* with = find(entries, "with")) {
    if (!with->value.IsNull())
      for (const auto& argument : reader.any_mapping(with->value, with->value_where, "'with' of " + what))
        stage.arguments.push_back(StageArgument{argument.key,
                                                reader.text_or_list(argument, "parameter '" + argument.key + "' of " + what),
                                                argument.key_where, argument.value_where});
  }
  return stage;
}

// Where each document of a YAML stream starts; nothing else of the events is kept.
class DocumentStarts final : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

SourceLocation location(const Reader& reader, const YAML::Mark& mark) {
  return mark.is_null() ? reader.top() : SourceLocation{reader.top().file, mark.line + 1, mark.column + 1};
}

// The file's one document. yaml-cpp 0.7's LoadAll never returns, allocating until memory runs
// out, when a document starts with a token the parser does not consume (a top-level ',' as in
// ", a" or "{a: 1},"): each step yields another empty document at the same place. So documents
// are counted with the event parser, which stops at the third, and the first is loaded alone.
YAML::Node parse_yaml(std::string_view text, const Reader& reader) {
  try {
    std::istringstream stream{std::string(text)};
    YAML::Parser parser(stream);
    DocumentStarts documents;
    while (documents.starts.size() < 3 && parser.HandleNextDocument(documents)) {
    }
    const auto& starts = documents.starts;
    for (std::size_t i = 1; i < starts.size(); ++i) {
      if (starts[i].pos != starts[i - 1].pos) continue;
      const auto at = static_cast<std::size_t>(std::max(starts[i].pos, 0));
      reader.fail(ErrorCode::ConfigSyntax, location(reader, starts[i]),
                  at < text.size() ? "unexpected '" + std::string(1, text[at]) + "' where a value should start"
                                   : "the YAML parser stopped here");
    }
    if (starts.size() > 1)
      reader.fail(ErrorCode::ConfigSyntax, location(reader, starts[1]),
                  "a second YAML document; a pipeline file holds exactly one");
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    reader.fail(ErrorCode::ConfigSyntax, location(reader, e.mark), e.msg);
  }
}

}  // namespace

PipelineDocument parse_pipeline_document(std::string_view text, const fs::path& file) {
  const Reader reader(file);
  const YAML::Node root = parse_yaml(text, reader);
  if (!root.IsDefined() || root.IsNull())
    reader.fail(ErrorCode::ConfigMissingKey, reader.top(), "the pipeline is empty; it needs at least 'name' and 'stages'");

  const auto entries = reader.mapping(root, reader.at(root, reader.top()), "the pipeline", kTopLevelKeys);
  PipelineDocument document;
  document.file = file;
  document.plugins_where = reader.top();
  document.variables_where = reader.top();

  const Entry* name = find(entries, "name");
  if (name == nullptr) reader.fail(ErrorCode::ConfigMissingKey, reader.top(), "the pipeline has no 'name' key");
  document.name = reader.text(*name, "'name'");
  if (const Entry* description = find(entries, "description"))
    document.description = reader.text(*description, "'description'");
  if (const Entry* plugins = find(entries, "plugins")) {
    document.plugins = read_plugins(reader, *plugins);
    document.plugins_where = plugins->value_where;
  }
  if (const Entry* variables = find(entries, "variables")) {
    if (!variables->value.IsNull()) document.variables = read_variables(reader, *variables);
    document.variables_where = variables->key_where;
  }

  const Entry* stages = find(entries, "stages");
  if (stages == nullptr)
    reader.fail(ErrorCode::ConfigMissingKey, reader.top(), "the pipeline has no 'stages' key (the list of stages to run)");
  if (!stages->value.IsSequence())
    reader.fail(ErrorCode::ConfigWrongType, stages->value_where,
                "'stages' must be a sequence of stages, not " + describe_kind(stages->value));
  if (stages->value.size() == 0)
    reader.fail(ErrorCode::ConfigBadValue, stages->value_where, "'stages' is empty; list at least one stage");
  for (std::size_t i = 0; i < stages->value.size(); ++i) {
    const YAML::Node node = stages->value[i];
    document.stages.push_back(read_stage(reader, node, reader.at(node, stages->value_where), i));
  }
  return document;
}

PipelineDocument load_pipeline_document(const fs::path& file) {
  const auto bytes = read_file(file);
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return parse_pipeline_document(text, file);
}

}  // namespace asc::host
