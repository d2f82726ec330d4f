#include "command_line.hpp"

#include <asc/host/long_flags.hpp>
#include <asc/sdk/error.hpp>

namespace asc::model_trade {
namespace {

struct Flag {
  const char* name;
  const char* param;  // the profiler.analyse parameter; nullptr for --help / --quiet
  bool takes_value;
};

constexpr Flag kFlags[] = {
    {"report", "report", true},
    {"output", "output", true},
    {"format", "format", true},
    {"html_output", "html_output", true},
    {"trace_output", "trace_output", true},
    {"model_name", "model_name", true},
    {"soc_version", "soc_version", true},
    {"ddr_peak_bandwidth", "ddr_peak_bandwidth", true},
    {"quiet", nullptr, false},
    {"help", nullptr, false},
};

[[noreturn]] void usage_error(const std::string& message) {
  throw Error(ErrorCode::UsageError, message + " (run `modelTrade --help`)");
}

std::vector<host::LongFlag> long_flags() {
  std::vector<host::LongFlag> flags;
  for (const Flag& flag : kFlags) flags.push_back({flag.name, flag.takes_value});
  return flags;
}

}  // namespace

const char* const kUsage =
    "Usage: modelTrade --report=DIR [--output=perf.json] [--format=json|html|trace[,...]]\n"
    "                  [--html_output=FILE] [--trace_output=FILE] [--model_name=NAME]\n"
    "                  [--soc_version=SOC] [--ddr_peak_bandwidth=GBPS] [--quiet]\n"
    "\n"
    "Analyses an msprof profile (real CANN output or the NPU simulator's) and writes modelTrade's report:\n"
    "where the device time goes, how much of it moves data, pipe utilisation, the msprof health table, and\n"
    "what to change.\n"
    "\n"
    "  --report              a PROF_* directory, its mindstudio_profiler_output/, a parent holding one\n"
    "                        PROF_*, or an op_summary_*.csv (op_summary is required; task_time_*.csv and\n"
    "                        msprof_*.json are used when present)\n"
    "  --output              the report file (default perf.json); other formats are written beside it\n"
    "                        with their own extension (perf.html, perf.trace.json)\n"
    "  --format              json (default), html (self-contained page with charts and a timeline),\n"
    "                        trace (Chrome trace JSON for Perfetto / chrome://tracing); several with commas\n"
    "  --html_output, --trace_output  explicit files for those formats (each implies its format)\n"
    "  --model_name, --soc_version    names shown in the report (default: from the data, else unknown)\n"
    "  --ddr_peak_bandwidth  the device's peak DDR bandwidth in GB/s, to judge DDR bandwidth utilisation\n"
    "  --quiet               do not print the summary and advice\n"
    "\n"
    "Exit status: 0 on success, 10 + the error class digit otherwise (EE4xxx file errors -> 14,\n"
    "EE5xxx usage/configuration -> 15, EE6xxx plugin not found -> 16). docs/model_trade.md describes\n"
    "the report fields and rules.\n";

Invocation parse_command_line(const std::vector<std::string>& arguments) {
  Invocation invocation;
  std::map<std::string, std::string> given = host::parse_long_flags("modelTrade", long_flags(), arguments, "--report=DIR");
  if (given.count("help") != 0) invocation.help = true;
  if (invocation.help) return invocation;
  if (given.count("report") == 0 || given["report"].empty()) usage_error("--report is required");
  for (const Flag& flag : kFlags)
    if (const auto found = given.find(flag.name); found != given.end() && flag.param != nullptr)
      invocation.params[flag.param] = found->second;
  if (given.count("quiet") != 0) invocation.params["print"] = "false";
  return invocation;
}

}  // namespace asc::model_trade
