#include "command_line.hpp"

#include <algorithm>
#include <asc/host/long_flags.hpp>
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
    {"criteria", "criteria", true, Applies::Dirs},
    {"nonfinite_in_error_rate", nullptr, false, Applies::Both},
    {"output", "json", true, Applies::Both},
    {"csv", "csv", true, Applies::Both},
    {"html", "html", true, Applies::Both},
    {"quiet", nullptr, false, Applies::Both},
    {"help", nullptr, false, Applies::Both},
};

[[noreturn]] void usage_error(const std::string& message) {
  throw Error(ErrorCode::UsageError, message + " (run `op_validate --help`)");
}

std::vector<host::LongFlag> long_flags() {
  std::vector<host::LongFlag> flags;
  for (const Flag& flag : kFlags) flags.push_back({flag.name, flag.takes_value});
  return flags;
}

}  // namespace

const char* const kUsage =
    "Usage:\n"
    "  op_validate --golden=FILE --actual=FILE [--op_name=NAME] [--abs_tolerance=A] [--rel_tolerance=R]\n"
    "              [--error_rate_threshold=E] [--dtype=T] [--shape=D0,D1,...] [--output=report.json]\n"
    "              [--csv=report.csv] [--html=report.html] [--quiet]\n"
    "  op_validate --golden_dir=DIR --actual_dir=DIR [--criteria=auto|network|elements]\n"
    "              [--abs_tolerance=A] [--rel_tolerance=R] [--error_rate_threshold=E]\n"
    "              [--output=report.json] [--csv=report.csv] [--html=report.html]\n"
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
    "  --nonfinite_in_error_rate  count a NaN/Inf on one side only as an ordinary failing element;\n"
    "                           without it any such element fails the comparison, whatever the rate\n"
    "  --criteria               whole networks: `network` judges each output by CosineSimilarity >= 0.99\n"
    "                           and RelativeEuclideanDistance within 10 epsilons of the precision it was\n"
    "                           computed in (fp16: 9.8e-3); `elements` by the tolerances above; `auto`\n"
    "                           (default): elements when a tolerance is given, else network\n"
    "  --output, --csv, --html  write the JSON, CSV (msit columns) and HTML reports\n"
    "  --quiet                  do not print the table and diagnosis\n"
    "\n"
    "Exit status: 0 pass, 1 precision failure, 2 bad input or usage (the message names the EE code).\n"
    "docs/op_validate.md describes the metrics, thresholds and report fields.\n";

Invocation parse_command_line(const std::vector<std::string>& arguments) {
  Invocation invocation;
  const std::map<std::string, std::string> given =
      host::parse_long_flags("op_validate", long_flags(), arguments, "--golden=FILE");
  bool files = false, dirs = false;
  for (const Flag& flag : kFlags)
    if (given.count(flag.name) != 0) {
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
  for (const Flag& flag : kFlags)
    if (const auto found = given.find(flag.name); found != given.end() && flag.param != nullptr)
      invocation.params[flag.param] = found->second;
  if (given.count("quiet") != 0) invocation.params["print"] = "false";
  if (given.count("nonfinite_in_error_rate") != 0) invocation.params["nonfinite_in_error_rate"] = "true";
  return invocation;
}

}  // namespace asc::op_validate
