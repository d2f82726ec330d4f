#include "command_line.hpp"

#include <asc/host/ascend_flags.hpp>
#include <asc/sdk/error.hpp>
#include <cstddef>
#include <utility>

namespace asc::msprof {
namespace {

using host::FlagSpec;

const std::vector<std::string> kOnOff = {"on", "off"};
// --aic-metrics groups msprof knows (reference §2.5); the timing model fills PipeUtilization.
const std::vector<std::string> kAicMetrics = {"PipeUtilization", "ArithmeticUtilization", "Memory",
                                              "MemoryL0",        "MemoryUB",              "ResourceConflictRatio",
                                              "L2Cache",         "MemoryAccess",          "PipelineExecuteUtilization"};
// msprof's other modes: parsing, exporting, querying, attaching to a running process.
const std::vector<std::string> kOtherModes = {"export", "parse", "query", "dynamic", "pid"};

FlagSpec switch_flag(const std::string& name, const std::string& help, const std::string& group) {
  return {.name = name, .value_name = "on|off", .help = help, .choices = kOnOff, .group = group};
}

FlagSpec number_flag(const std::string& name, const std::string& help, const std::string& group) {
  return {.name = name, .value_name = "N", .help = help, .group = group};
}

const std::vector<FlagSpec>& flag_specs() {
  static const std::vector<FlagSpec> specs = [] {
    const std::string app = "Application and output";
    const std::string task = "Task and AI Core data (what the simulator produces)";
    const std::string recorded = "Accepted and recorded (the simulator has no such counters)";
    std::vector<FlagSpec> s = {
        {.name = "application", .value_name = "\"APP ARGS\"",
         .help = "the application and its arguments (or give them after the options)", .group = app},
        {.name = "output", .value_name = "DIR", .help = "where PROF_* is written (default: the current directory)",
         .group = app},
        {.name = "task-time", .value_name = "on|off|l0|l1",
         .help = "task data: op_summary, op_statistic, task_time, the timeline (default on = l1; l0: durations "
                 "only)",
         .choices = {"on", "off", "l0", "l1"}, .group = task},
        switch_flag("ai-core", "AI Core PMU data (default on)", task),
        {.name = "aic-mode", .value_name = "MODE",
         .help = "PMU per task (default) or sampled per period over the simulated timeline",
         .choices = {"task-based", "sample-based"}, .group = task},
        number_flag("aic-freq", "sample-based sampling frequency in Hz, 1..100 (default 100)", task),
        {.name = "aic-metrics", .value_name = "GROUP",
         .help = "PMU event group (default PipeUtilization, the only one the timing model fills)",
         .choices = kAicMetrics, .group = task},
        switch_flag("runtime-api", "runtime API data (default off)", recorded),
        switch_flag("ascendcl", "AscendCL API data (default on)", recorded),
        switch_flag("aicpu", "AI CPU operator details (default off)", recorded),
        switch_flag("model-execution", "GE model execution data (deprecated in msprof)", recorded),
        switch_flag("hccl", "HCCL data (deprecated in msprof)", recorded),
        switch_flag("msproftx", "user tx markers (default off)", recorded),
        switch_flag("l2", "L2 cache data (default off)", recorded),
        switch_flag("sys-hardware-mem", "DDR/HBM bandwidth", recorded),
        number_flag("sys-hardware-mem-freq", "its sampling frequency (Hz)", recorded),
        switch_flag("sys-cpu-profiling", "AI CPU / control CPU counters", recorded),
        number_flag("sys-cpu-freq", "its sampling frequency (Hz)", recorded),
        switch_flag("sys-profiling", "system CPU and memory usage", recorded),
        number_flag("sys-sampling-freq", "its sampling frequency (Hz)", recorded),
        switch_flag("sys-pid-profiling", "process CPU and memory usage", recorded),
        number_flag("sys-pid-sampling-freq", "its sampling frequency (Hz)", recorded),
        switch_flag("sys-io-profiling", "NIC / RoCE data", recorded),
        number_flag("sys-io-sampling-freq", "its sampling frequency (Hz)", recorded),
        switch_flag("sys-interconnection-profiling", "PCIe / HCCS data", recorded),
        number_flag("sys-interconnection-freq", "its sampling frequency (Hz)", recorded),
        switch_flag("dvpp-profiling", "DVPP data", recorded),
        number_flag("dvpp-freq", "its sampling frequency (Hz)", recorded),
        {.name = "llc-profiling", .value_name = "read|write|capacity", .help = "LLC data",
         .choices = {"read", "write", "capacity"}, .group = recorded},
        {.name = "storage-limit", .value_name = "SIZE", .help = "disk limit for the data, e.g. 200MB",
         .group = recorded},
    };
    for (const std::string& mode : kOtherModes)
      s.push_back({.name = mode, .value_name = "VALUE", .help = "msprof's " + mode + " mode: not available here",
                   .group = "Not available"});
    s.push_back({.name = "help", .help = "show this help", .boolean = true, .group = "Not available",
                 .aliases = {"h"}});
    return s;
  }();
  return specs;
}

// msprof flag -> the key of its ProfileParams (the PROFILER_SAMPLECONFIG JSON) where one is
// known; other flags are recorded under their own name.
const std::vector<std::pair<std::string, std::string>> kSampleConfigKeys = {
    {"ascendcl", "acl"},
    {"runtime-api", "runtimeApi"},
    {"task-time", "taskTime"},
    {"ai-core", "ai_core_profiling"},
    {"aic-mode", "ai_core_profiling_mode"},
    {"aic-metrics", "ai_core_metrics"},
    {"aicpu", "aicpuTrace"},
    {"hccl", "hcclTrace"},
    {"msproftx", "msproftx"},
    {"l2", "l2CacheTaskProfiling"},
    {"sys-hardware-mem", "hardware_mem"},
    {"sys-cpu-profiling", "cpu_profiling"},
    {"sys-profiling", "sys_profiling"},
    {"sys-pid-profiling", "pid_profiling"},
    {"sys-io-profiling", "io_profiling"},
    {"sys-interconnection-profiling", "interconnection_profiling"},
    {"dvpp-profiling", "dvpp_profiling"},
    {"llc-profiling", "llc_profiling"},
};

int integer_in(const host::ParsedFlags& flags, const std::string& name, int low, int high) {
  const std::string text = flags.get(name);
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw host::invalid_flag_value(name, text, "expected an integer");
  if (value < low || value > high)
    throw host::invalid_flag_value(name, text,
                                   "valid value range is [" + std::to_string(low) + ", " + std::to_string(high) + "]");
  return static_cast<int>(value);
}

std::vector<std::string> application_of(const host::ParsedFlags& flags, const std::vector<std::string>& trailing) {
  if (flags.has("application") && !trailing.empty())
    throw Error(ErrorCode::UsageError, "the application is given twice (--application and '" + trailing.front() +
                                           "' after the options): give it once; run `msprof --help`");
  std::vector<std::string> application = flags.has("application") ? split_words(flags.get("application")) : trailing;
  if (application.empty())
    throw Error(ErrorCode::UsageError,
                "no application to profile: msprof [options] <app> [app args] or msprof [options] "
                "--application=\"<app> [app args]\"; run `msprof --help`");
  return application;
}

}  // namespace

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < text.size())
        word += text[++i];
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::exchange(word, {}));
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0)
    throw Error(ErrorCode::UsageError, std::string("--application: unterminated ") + quote + " quote in '" + text + "'");
  if (in_word) words.push_back(word);
  return words;
}

std::string usage() {
  return "usage: msprof [options] <app> [app args]\n"
         "       msprof [options] --application=\"<app> [app args]\"\n"
         "\n"
         "Runs an application with profiling switched on, as Huawei's msprof does: the options are handed to\n"
         "the application's runtime in the environment variable PROFILER_SAMPLECONFIG (a JSON object with\n"
         "msprof's own keys), and the npusim runtime inside it (ais_bench on the simulated NPU) writes\n"
         "PROF_*/mindstudio_profiler_output/ into --output: op_summary, op_statistic, task_time (host <->\n"
         "device copies as MEMCPY_ASYNC tasks), msprof_*.json, and with --aic-mode=sample-based\n"
         "ai_core_utilization_*.csv from sampling the simulated AI Cores every 1/--aic-freq seconds of\n"
         "simulated time. Example:\n"
         "  msprof --output=prof --aic-mode=sample-based --aic-freq=100 ais_bench --model=m.om --loop=100\n"
         "\n" +
         host::format_flag_help(flag_specs()) +
         "\n"
         "Exit status: the application's (128 + signal if it was killed); 10 + the error class digit on a\n"
         "coded error of msprof itself (EE5008 bad command line -> 15, EE4001 application not found -> 14).\n"
         "docs/msprof.md describes the collection and what each output holds.\n";
}

Invocation parse_command_line(const std::vector<std::string>& arguments) {
  // Options first; the first argument that is not an option starts the application. Every option
  // but --help takes a value, possibly as the next argument.
  std::vector<std::string> options, trailing;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument.size() < 2 || argument[0] != '-') {
      trailing.assign(arguments.begin() + static_cast<std::ptrdiff_t>(i), arguments.end());
      break;
    }
    options.push_back(argument);
    const bool help = argument == "--help" || argument == "-h" || argument == "--h" || argument == "-help";
    if (!help && argument.find('=') == std::string::npos && i + 1 < arguments.size()) options.push_back(arguments[++i]);
  }
  const host::ParsedFlags flags = host::parse_ascend_flags("msprof", flag_specs(), options);
  Invocation invocation;
  invocation.help = flags.get_bool("help");
  if (invocation.help) return invocation;
  for (const std::string& mode : kOtherModes)
    if (flags.has(mode))
      throw Error(ErrorCode::UsageError,
                  "msprof --" + mode + " is not available: this msprof only collects, and the npusim runtime writes "
                  "mindstudio_profiler_output/ (already parsed and exported) while the application runs");
  if (flags.has("aic-metrics") && flags.get("aic-metrics") != "PipeUtilization")
    throw host::invalid_flag_value("aic-metrics", flags.get("aic-metrics"),
                                   "the simulator's PMU model fills PipeUtilization only (pipe busy times from the "
                                   "timing model); the other groups' counters are not simulated",
                                   ErrorCode::ConfigBadValue);
  const int frequency = flags.has("aic-freq") ? integer_in(flags, "aic-freq", 1, 100) : 100;
  for (const auto& [name, value] : flags.values())
    if (name.size() > 5 && name.compare(name.size() - 5, 5, "-freq") == 0 && name != "aic-freq")
      integer_in(flags, name, 1, 100000);

  invocation.application = application_of(flags, trailing);
  invocation.output = std::filesystem::absolute(flags.has("output") ? flags.get("output") : ".").lexically_normal();
  if (!invocation.output.has_filename()) invocation.output = invocation.output.parent_path();  // "dir/" -> "dir"

  nlohmann::ordered_json& config = invocation.sample_config;
  const std::filesystem::path app = invocation.application.front();
  config["result_dir"] = invocation.output.string();
  config["app"] = app.filename().string();
  config["app_dir"] = app.has_parent_path() ? app.parent_path().string() : ".";
  std::string parameters;
  for (std::size_t i = 1; i < invocation.application.size(); ++i)
    parameters += (i == 1 ? "" : " ") + invocation.application[i];
  config["app_parameters"] = parameters;
  config["ai_core_profiling"] = flags.get("ai-core", "on");
  config["ai_core_profiling_mode"] = flags.get("aic-mode", "task-based");
  config["aicore_sampling_interval"] = 1000 / frequency;  // ms, as ProfileParams holds it
  config["ai_core_metrics"] = flags.get("aic-metrics", "PipeUtilization");
  config["taskTime"] = flags.get("task-time", "on");
  config["runtimeApi"] = flags.get("runtime-api", "off");
  config["acl"] = flags.get("ascendcl", "on");
  for (const auto& [name, value] : flags.values()) {
    if (name == "application" || name == "output" || name == "aic-freq") continue;
    std::string key = name;
    for (const auto& [flag, known] : kSampleConfigKeys)
      if (flag == name) key = known;
    config[key] = value;
  }
  return invocation;
}

}  // namespace asc::msprof
