#include "command_line.hpp"

#include <algorithm>
#include <asc/host/close_names.hpp>
#include <asc/sdk/error.hpp>
#include <optional>

namespace asc::op_validate {
namespace {

enum class Applies { Files, Dirs, Both };

struct Flag {
  const char* name;
  const char* param;  // nullptr: not a stage parameter
  bool takes_value;
  Applies applies;
};

constexpr Flag kFlags[] = {
    {"golden", "golden", true, Applies::Files},
    {"actual", "actual", true, Applies::Files},
    {"op_name", "op_name", true, Applies::Files},
    {"dtype", "dtype", true, Applies::Files},
    {"golden_dtype", "golden_dtype", true, Applies::Files},
    {"actual_dtype", "actual_dtype", true, Applies::Files},
    {"shape", "shape", true, Applies::Files},
    {"golden_dir", "golden_dir", true, Applies::Dirs},
    {"actual_dir", "actual_dir", true, Applies::Dirs},
    {"abs_tolerance", "abs_tolerance", true, Applies::Both},
    {"rel_tolerance", "rel_tolerance", true, Applies::Both},
    {"error_rate_threshold", "error_rate_threshold", true, Applies::Both},
    {"output", "json", true, Applies::Both},
    {"csv", "csv", true, Applies::Both},
    {"html", "html", true, Applies::Both},
    {"quiet", nullptr, false, Applies::Both},
    {"help", nullptr, false, Applies::Both},
};

[[noreturn]] void usage_error(const std::string& message) {
  throw Error(ErrorCode::UsageError, message + " (run `op_validate --help`)");
}

const Flag& find_flag(const std::string& name) {
  for (const Flag& flag : kFlags)
    if (name == flag.name) return flag;
  std::vector<std::string> names;
  for (const Flag& flag : kFlags) names.emplace_back(flag.name);
  usage_error("unknown option '--" + name + "'" + host::did_you_mean(name, names));
}

}  // namespace

const char* const kUsage =
    "Usage:\n"
    "  op_validate --golden=FILE --actual=FILE [--op_name=NAME] [--abs_tolerance=A] [--rel_tolerance=R]\n"
    "              [--error_rate_threshold=E] [--dtype=T] [--shape=D0,D1,...] [--output=report.json]\n"
    "              [--csv=report.csv] [--html=report.html] [--quiet]\n"
    "  op_validate --golden_dir=DIR --actual_dir=DIR [--abs_tolerance=A] [--rel_tolerance=R]\n"
    "              [--error_rate_threshold=E] [--output=report.json] [--csv=report.csv] "
    "[--html=report.html]\n"
    "\n"
    "Compares an operator's output with its golden value (.npy, or raw .bin), or every operator of two\n"
    "dump directories (manifest.json, e.g. from reference.run dump_dir), and prints msit compare's\n"
    "metrics with a diagnosis. Options take `--flag=value` or `--flag value`.\n"
    "\n"
    "  --golden, --actual       the golden and the actual output files\n"
    "  --op_name                the operator's name, for the reports\n"
    "  --dtype                  element type of raw .bin files (default float32); --golden_dtype and\n"
    "                           --actual_dtype set one side\n"
    "  --shape                  shape to read the files as (raw .bin files are flat without it)\n"
    "  --golden_dir, --actual_dir  dump directories to compare operator by operator\n"
    "  --abs_tolerance          an element fails when |actual - golden| exceeds this (default 1e-3)\n"
    "  --rel_tolerance          ... or |actual - golden| / (|golden| + 1e-12) exceeds this (default 1e-2)\n"
    "  --error_rate_threshold   pass when at most this fraction of elements fails (default 0)\n"
    "  --output, --csv, --html  write the JSON, CSV (msit columns) and HTML reports\n"
    "  --quiet                  do not print the table and diagnosis\n"
    "\n"
    "Exit status: 0 pass, 1 precision failure, 2 bad input or usage (the message names the EE code).\n"
    "docs/op_validate.md describes the metrics, thresholds and report fields.\n";

Invocation parse_command_line(const std::vector<std::string>& arguments) {
  Invocation invocation;
  std::map<std::string, std::string> given;  // flag -> value
  bool files = false, dirs = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "-h") {
      invocation.help = true;
      continue;
    }
    if (argument.rfind("--", 0) != 0 || argument.size() == 2)
      usage_error("unexpected argument '" + argument +
                  "': every input is given with a flag such as --golden=FILE");
    const auto equals = argument.find('=');
    const std::string name = argument.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const Flag& flag = find_flag(name);
    std::string value;
    if (!flag.takes_value) {
      if (equals != std::string::npos) usage_error("--" + name + " takes no value");
    } else if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
    } else {
      if (i + 1 >= arguments.size()) usage_error("--" + name + " needs a value");
      value = arguments[++i];
    }
    if (!given.emplace(name, value).second) usage_error("--" + name + " is given twice");
    files = files || flag.applies == Applies::Files;
    dirs = dirs || flag.applies == Applies::Dirs;
  }
  if (given.count("help") != 0) invocation.help = true;
  if (invocation.help) return invocation;
  if (files && dirs)
    usage_error(
        "give either --golden/--actual (one operator) or --golden_dir/--actual_dir (a whole network), "
        "not both");
  const std::vector<std::string> required = dirs ? std::vector<std::string>{"golden_dir", "actual_dir"}
                                                 : std::vector<std::string>{"golden", "actual"};
  for (const std::string& name : required)
    if (given.count(name) == 0) usage_error("--" + name + " is required");
  invocation.stage = dirs ? "validator.compare_dirs" : "validator.compare_files";
  for (const auto& [name, value] : given) {
    const Flag& flag = find_flag(name);
    if (flag.param != nullptr) invocation.params[flag.param] = value;
  }
  if (given.count("quiet") != 0) invocation.params["print"] = "false";
  return invocation;
}

}  // namespace asc::op_validate
