#include "asc/host/ascend_flags.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "asc/host/close_names.hpp"

namespace asc::host {
namespace {

std::string canonical(std::string_view name) {
  std::string text(name);
  std::replace(text.begin(), text.end(), '-', '_');
  return text;
}

std::optional<bool> parse_boolean(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "true" || lower == "1" || lower == "on" || lower == "yes") return true;
  if (lower == "false" || lower == "0" || lower == "off" || lower == "no") return false;
  return std::nullopt;
}

struct SplitArgument {
  std::string spelling;  // "--soc-version" as typed
  std::string name;      // "soc_version"
  std::optional<std::string> value;
};

// "-x", "--x", "-x=v", "--x=v"; anything else is not a flag.
std::optional<SplitArgument> split_flag(const std::string& argument) {
  if (argument.size() < 2 || argument[0] != '-') return std::nullopt;
  const std::size_t dashes = argument[1] == '-' ? 2 : 1;
  if (argument.size() == dashes) return std::nullopt;
  if (std::isalpha(static_cast<unsigned char>(argument[dashes])) == 0) return std::nullopt;  // "-1", "---x"
  const auto equals = argument.find('=');
  SplitArgument split;
  split.spelling = argument.substr(0, equals);
  split.name = canonical(split.spelling.substr(dashes));
  if (equals != std::string::npos) split.value = argument.substr(equals + 1);
  return split;
}

const FlagSpec* find_spec(const std::vector<FlagSpec>& specs, const std::string& name) {
  for (const auto& spec : specs) {
    if (canonical(spec.name) == name) return &spec;
    for (const auto& alias : spec.aliases)
      if (canonical(alias) == name) return &spec;
  }
  return nullptr;
}

std::string help_hint(std::string_view tool) { return "; run `" + std::string(tool) + " --help` for the flags"; }

Error usage_error(std::string_view tool, const std::string& message) {
  return Error(ErrorCode::UsageError, message + help_hint(tool));
}

Error unknown_flag(std::string_view tool, const std::vector<FlagSpec>& specs, const SplitArgument& flag) {
  // Compared with the dashes on, so the suggestion reads as a flag: (did you mean '--soc_version'?)
  std::vector<std::string> names;
  for (const auto& spec : specs) names.push_back("--" + spec.name);
  return usage_error(tool, "unknown flag '" + flag.spelling + "'" + did_you_mean("--" + flag.name, names));
}

void check_choices(const FlagSpec& spec, const std::string& value) {
  if (spec.choices.empty() || std::find(spec.choices.begin(), spec.choices.end(), value) != spec.choices.end())
    return;
  throw invalid_flag_value(spec.name, value, "use one of " + join(spec.choices) +
                                                 did_you_mean(value, spec.choices));
}

}  // namespace

std::string ParsedFlags::get(const std::string& name, const std::string& fallback) const {
  const auto found = values_.find(name);
  return found == values_.end() ? fallback : found->second;
}

bool ParsedFlags::get_bool(const std::string& name) const { return get(name) == "true"; }

std::string ParsedFlags::spelling(const std::string& name) const {
  const auto found = spellings_.find(name);
  return found == spellings_.end() ? "--" + name : found->second;
}

void ParsedFlags::add(const std::string& name, std::string spelling, std::string value) {
  values_[name] = std::move(value);
  spellings_[name] = std::move(spelling);
}

ParsedFlags parse_ascend_flags(std::string_view tool, const std::vector<FlagSpec>& specs,
                               const std::vector<std::string>& arguments) {
  ParsedFlags flags;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const auto flag = split_flag(arguments[i]);
    if (!flag)
      throw usage_error(tool, "unexpected argument '" + arguments[i] +
                                  "': every argument is a flag, as --name=value or --name value");
    const FlagSpec* spec = find_spec(specs, flag->name);
    if (spec == nullptr) throw unknown_flag(tool, specs, *flag);
    if (flags.has(spec->name))
      throw usage_error(tool, "flag " + flag->spelling + " is given twice (first as " + flags.spelling(spec->name) +
                                  "='" + flags.get(spec->name) + "'); give it once");

    std::string value;
    if (spec->boolean) {
      bool on = true;
      if (flag->value) {
        const auto parsed = parse_boolean(*flag->value);
        if (!parsed) throw invalid_flag_value(spec->name, *flag->value, "use true or false (also 1/0, on/off, yes/no)");
        on = *parsed;
      } else if (i + 1 < arguments.size()) {
        // `--flag on`: only a boolean word is taken as the value, so `--flag --next` still works.
        if (const auto parsed = parse_boolean(arguments[i + 1])) {
          on = *parsed;
          ++i;
        }
      }
      value = on ? "true" : "false";
    } else if (flag->value) {
      value = *flag->value;
    } else {
      if (i + 1 >= arguments.size())
        throw usage_error(tool, "flag " + flag->spelling + " needs a value (" + flag->spelling + "=" +
                                    (spec->value_name.empty() ? "VALUE" : spec->value_name) + ")");
      const auto next = split_flag(arguments[i + 1]);
      if (next && find_spec(specs, next->name) != nullptr)
        throw usage_error(tool, "flag " + flag->spelling + " needs a value, but is followed by the flag " +
                                    next->spelling + " (write " + flag->spelling + "=VALUE)");
      value = arguments[++i];
    }
    check_choices(*spec, value);
    flags.add(spec->name, flag->spelling, std::move(value));
  }
  return flags;
}

Error invalid_flag_value(std::string_view name, std::string_view value, std::string_view reason, ErrorCode code) {
  return Error(code, "Value '" + std::string(value) + "' for --" + std::string(name) + " is invalid: " +
                         std::string(reason));
}

std::string format_flag_help(const std::vector<FlagSpec>& specs) {
  std::vector<std::string> groups;
  std::size_t width = 0;
  const auto left = [](const FlagSpec& spec) {
    std::string text = "  --" + spec.name;
    if (!spec.boolean) text += "=" + (spec.value_name.empty() ? std::string("VALUE") : spec.value_name);
    return text;
  };
  for (const auto& spec : specs) {
    if (std::find(groups.begin(), groups.end(), spec.group) == groups.end()) groups.push_back(spec.group);
    width = std::max(width, left(spec).size());
  }
  std::string text;
  for (const auto& group : groups) {
    text += "\n" + (group.empty() ? std::string("Other") : group) + ":\n";
    for (const auto& spec : specs) {
      if (spec.group != group) continue;
      std::string line = left(spec);
      line.resize(width + 3, ' ');
      std::string help = spec.help;
      if (!spec.choices.empty()) {
        // Choices go on their own line when they would make the last line long.
        const std::string choices = "[" + join(spec.choices, "|") + "]";
        const std::size_t last_line = help.size() - (help.rfind('\n') == std::string::npos ? 0 : help.rfind('\n') + 1);
        help += (help.empty() ? "" : width + 3 + last_line + choices.size() > 110 ? "\n" : " ") + choices;
      }
      // Continuation lines of a multi-line help align under the first.
      for (std::size_t at = help.find('\n'); at != std::string::npos; at = help.find('\n', at + width + 4))
        help.insert(at + 1, std::string(width + 3, ' '));
      text += line + help + "\n";
    }
  }
  return text;
}

}  // namespace asc::host
