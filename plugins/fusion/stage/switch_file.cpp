#include "stage/switch_file.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string_view>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>

#include "stage/relaxed_json.hpp"

namespace asc::fusion {
namespace {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::optional<bool> switch_value(const std::string& text) {
  const std::string value = lower(text);
  if (value == "on" || value == "true") return true;
  if (value == "off" || value == "false") return false;
  return std::nullopt;
}

std::string known_names(const std::vector<KnownPass>& passes) {
  std::string names;
  for (const auto& pass : passes) names += (names.empty() ? "" : ", ") + pass.name;
  return names;
}

class SettingsBuilder {
 public:
  SettingsBuilder(std::string file, const std::vector<KnownPass>& passes) : file_(std::move(file)), passes_(passes) {}

  const KnownPass* find(const std::string& name) const {
    const auto it = std::find_if(passes_.begin(), passes_.end(), [&](const KnownPass& p) { return p.name == name; });
    return it == passes_.end() ? nullptr : &*it;
  }

  [[noreturn]] void unknown_pass(const std::string& name, int line, const std::string& extra = "") const {
    throw Error(ErrorCode::ConfigBadValue, file_ + ":" + std::to_string(line) + ": unknown pass '" + name + "'" + extra +
                                               "; known passes: " + known_names(passes_));
  }

  void set_name(const std::string& name, bool enabled, int line) {
    explicit_[name] = {enabled, file_ + ":" + std::to_string(line)};
  }
  // A group setting (ALL, Fusion, CustomFusion): every pass the predicate picks, unless named.
  void set_group(const std::function<bool(const KnownPass&)>& member, bool enabled, int line) {
    for (const auto& pass : passes_)
      if (member(pass)) group_[pass.name] = {enabled, file_ + ":" + std::to_string(line)};
  }

  SwitchSettings result() const {
    SwitchSettings settings = group_;
    for (const auto& [name, decision] : explicit_) settings[name] = decision;
    return settings;
  }

  const std::string& file() const { return file_; }
  const std::vector<KnownPass>& passes() const { return passes_; }

 private:
  std::string file_;
  const std::vector<KnownPass>& passes_;
  SwitchSettings explicit_;
  SwitchSettings group_;
};

[[noreturn]] void malformed(const std::string& file, int line, int column, const std::string& what) {
  throw Error(ErrorCode::ConfigSyntax, file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
}

bool value_of(const JsonMember& member, const std::string& file) {
  const auto value = member.value.is_object ? std::nullopt : switch_value(member.value.text);
  if (!value)
    malformed(file, member.value.line, member.value.column,
              "the value of '" + member.key + "' must be \"on\"/\"off\" (or true/false)");
  return *value;
}

void read_text(const std::string& text, SettingsBuilder& builder) {
  int line_number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = trim(std::string_view(text).substr(start, end - start));
    ++line_number;
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    const auto colon = line.rfind(':');
    const std::string name = colon == std::string::npos ? "" : trim(line.substr(0, colon));
    const auto enabled = colon == std::string::npos ? std::nullopt : switch_value(trim(line.substr(colon + 1)));
    if (name.empty() || !enabled)
      malformed(builder.file(), line_number, 1, "expected 'PassName:on' or 'PassName:off', got '" + line + "'");
    if (builder.find(name) == nullptr) builder.unknown_pass(name, line_number);
    builder.set_name(name, *enabled, line_number);
  }
}

// {"Switch":{"GraphFusion":{...},"UBFusion":{...},"Cleanup":{...}}}
void read_atc_json(const JsonValue& groups, SettingsBuilder& builder) {
  if (!groups.is_object) malformed(builder.file(), groups.line, groups.column, "\"Switch\" must be an object");
  for (const JsonMember& group : groups.members) {
    if (group.key != "GraphFusion" && group.key != "UBFusion" && group.key != "Cleanup")
      throw Error(ErrorCode::ConfigBadValue, builder.file() + ":" + std::to_string(group.line) + ": unknown group '" +
                                                 group.key + "' (expected GraphFusion, UBFusion or Cleanup)");
    if (!group.value.is_object)
      malformed(builder.file(), group.value.line, group.value.column, "'" + group.key + "' must be an object");
    for (const JsonMember& entry : group.value.members) {
      const bool enabled = value_of(entry, builder.file());
      if (entry.key == "ALL") {
        builder.set_group([&](const KnownPass& p) { return p.category == group.key; }, enabled, entry.line);
        continue;
      }
      const KnownPass* pass = builder.find(entry.key);
      if (pass == nullptr) builder.unknown_pass(entry.key, entry.line);
      if (pass->category != group.key)
        builder.unknown_pass(entry.key, entry.line, " in group " + group.key + " (it is a " + pass->category + " pass)");
      builder.set_name(entry.key, enabled, entry.line);
    }
  }
}

bool is_fusion(const KnownPass& pass) { return pass.category == "GraphFusion" || pass.category == "UBFusion"; }

// {switch:{Fusion:true,ConvBatchNorm:true,ConvReLU:true,MatMulBiasAdd:true,CustomFusion:true}}
void read_seed_json(const JsonValue& entries, SettingsBuilder& builder) {
  if (!entries.is_object) malformed(builder.file(), entries.line, entries.column, "\"switch\" must be an object");
  static const std::pair<const char*, const char*> aliases[] = {{"ConvBatchNorm", "ConvBatchNormFusion"},
                                                                {"ConvReLU", "ConvActivationFusion"},
                                                                {"MatMulBiasAdd", "MatMulBiasAddFusion"}};
  for (const JsonMember& entry : entries.members) {
    const bool enabled = value_of(entry, builder.file());
    if (entry.key == "Fusion") {
      builder.set_group(is_fusion, enabled, entry.line);
      continue;
    }
    if (entry.key == "CustomFusion") {
      builder.set_group([](const KnownPass& p) { return is_fusion(p) && !p.builtin; }, enabled, entry.line);
      continue;
    }
    std::string name = entry.key;
    for (const auto& [alias, pass] : aliases)
      if (name == alias) name = pass;
    if (builder.find(name) == nullptr)
      builder.unknown_pass(entry.key, entry.line, " (seed names: Fusion, ConvBatchNorm, ConvReLU, MatMulBiasAdd, CustomFusion)");
    builder.set_name(name, enabled, entry.line);
  }
}

}  // namespace

SwitchSettings read_switch_file(const std::filesystem::path& path, const std::vector<KnownPass>& passes) {
  const std::vector<std::byte> bytes = read_file(path);
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  SettingsBuilder builder(path.string(), passes);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') {
    read_text(text, builder);
    return builder.result();
  }
  const JsonValue document = parse_relaxed_json(text, path.string());
  for (const JsonMember& member : document.members) {
    if (member.key == "Switch") read_atc_json(member.value, builder);
    else if (member.key == "switch") read_seed_json(member.value, builder);
    else
      malformed(path.string(), member.line, member.column,
                "unexpected key '" + member.key + "': a switch file has one top-level \"Switch\" object");
  }
  if (document.members.empty())
    malformed(path.string(), document.line, document.column, "empty switch file: expected a top-level \"Switch\" object");
  return builder.result();
}

}  // namespace asc::fusion
