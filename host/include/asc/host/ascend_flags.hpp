// Ascend-style (gflags-like) command lines, as ATC and ais_bench read them: every argument is a
// flag, given as `--name=value`, `--name value`, `-name=value` or `-name value`; `-` and `_`
// are interchangeable in names (`--soc-version` = `--soc_version`). A boolean flag may stand
// alone (`--enable_scope_fusion` = true) or take true/false, 1/0, on/off, yes/no in any case
// (`--enable_scope_fusion=True`, `--enable_small_channel on`); it is stored as "true"/"false".
// Every mistake is an asc::Error EE5008 that echoes what the user typed: an unknown flag (with
// "did you mean"), a flag given twice, a missing value, a value outside a flag's choices, a
// stray argument.
//
// Usage:
//   const std::vector<asc::host::FlagSpec> specs{
//       {.name = "model", .value_name = "FILE", .help = "the model to convert", .group = "Input"},
//       {.name = "log", .value_name = "LEVEL", .help = "log level",
//        .choices = {"debug", "info", "warning", "error", "null"}, .group = "Debug"},
//       {.name = "help", .help = "show this help", .boolean = true, .aliases = {"h"}},
//   };
//   const auto flags = asc::host::parse_ascend_flags("atc", specs, {argv + 1, argv + argc});
//   if (flags.get_bool("help")) { std::cout << asc::host::format_flag_help(specs); return 0; }
//   const std::string model = flags.get("model");          // "" when not given
//   if (bad(model)) throw asc::host::invalid_flag_value("model", model, "no such file");
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "asc/sdk/error.hpp"

namespace asc::host {

struct FlagSpec {
  std::string name;                  // canonical spelling, with underscores: "soc_version"
  std::string value_name;            // shown in help: --soc_version=SOC
  std::string help;                  // one or more sentences; help wraps nothing, keep lines short
  bool boolean = false;              // may stand alone; value normalised to "true"/"false"
  std::vector<std::string> choices;  // allowed values, exact spelling ("" = anything)
  std::string group;                 // help section; sections print in order of first use
  std::vector<std::string> aliases;  // other accepted names ("h" for "help")
};

// The flags given, by canonical name. Values are as typed (booleans normalised).
class ParsedFlags {
 public:
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  // The value, or `fallback` when the flag was not given.
  std::string get(const std::string& name, const std::string& fallback = "") const;
  // A boolean flag's value (false when absent).
  bool get_bool(const std::string& name) const;
  // How the user spelt the flag (e.g. "-soc-version"), for messages; "--name" when absent.
  std::string spelling(const std::string& name) const;
  const std::map<std::string, std::string>& values() const noexcept { return values_; }

  void add(const std::string& name, std::string spelling, std::string value);

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> spellings_;
};

// Parses `arguments` (argv without the program name) against `specs`. `tool` names the program
// in messages ("atc: unknown flag ..., run `atc --help`"). Throws asc::Error EE5008.
ParsedFlags parse_ascend_flags(std::string_view tool, const std::vector<FlagSpec>& specs,
                               const std::vector<std::string>& arguments);

// "Value 'V' for --NAME is invalid: REASON" as an asc::Error with `code` — the form of every
// bad-value message, after ATC's E10001.
Error invalid_flag_value(std::string_view name, std::string_view value, std::string_view reason,
                         ErrorCode code = ErrorCode::UsageError);

// Grouped help: one section per FlagSpec::group, each flag as
// "  --name=VALUE   help [choices]", aligned.
std::string format_flag_help(const std::vector<FlagSpec>& specs);

}  // namespace asc::host
