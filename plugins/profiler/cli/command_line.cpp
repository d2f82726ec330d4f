#include "command_line.hpp"

#include <asc/host/close_names.hpp>
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

const Flag& find_flag(const std::string& name) {
  for (const Flag& flag : kFlags)
    if (name == flag.name) return flag;
  std::vector<std::string> names;
  for (const Flag& flag : kFlags) names.emplace_back(flag.name);
  usage_error("unknown option '--" + name + "'" + host::did_you_mean(name, names));
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
  std::map<std::string, std::string> given;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "-h") {
      invocation.help = true;
      continue;
    }
    if (argument.rfind("--", 0) != 0 || argument.size() == 2)
      usage_error("unexpected argument '" + argument +
                  "': every input is given with a flag such as --report=DIR");
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
  }
  if (given.count("help") != 0) invocation.help = true;
  if (invocation.help) return invocation;
  if (given.count("report") == 0 || given["report"].empty()) usage_error("--report is required");
  for (const auto& [name, value] : given)
    if (const Flag& flag = find_flag(name); flag.param != nullptr) invocation.params[flag.param] = value;
  if (given.count("quiet") != 0) invocation.params["print"] = "false";
  return invocation;
}

}  // namespace asc::model_trade
