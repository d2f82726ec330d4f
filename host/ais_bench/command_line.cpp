#include "command_line.hpp"

#include <asc/host/ascend_flags.hpp>
#include <asc/sdk/error.hpp>
#include <cstdint>

namespace asc::ais_bench {
namespace {

using host::FlagSpec;

// Flag -> ais_bench.run parameter (empty: handled here, not passed on).
struct Mapping {
  const char* flag;
  const char* param;
};

const std::vector<FlagSpec>& flag_specs() {
  static const std::vector<FlagSpec> specs = {
      {.name = "model", .value_name = "FILE", .help = "the .om model to run (required)", .group = "Model and input",
       .aliases = {"m", "om", "om_model"}},
      {.name = "input", .value_name = "FILES|DIRS",
       .help = "input .bin/.npy files or directories, comma-separated, in model-input order (default: generated)",
       .group = "Model and input", .aliases = {"i"}},
      {.name = "pure_data_type", .value_name = "TYPE", .help = "generated input: zero, or random bytes 0..255",
       .choices = {"zero", "random"}, .group = "Model and input", .aliases = {"pdt"}},
      {.name = "dymBatch", .value_name = "N", .help = "batch size to run a dynamic-batch model at",
       .group = "Model and input", .aliases = {"dym_batch", "db"}},
      {.name = "dymHW", .value_name = "H,W", .help = "image size to run a dynamic image size model at",
       .group = "Model and input", .aliases = {"dym_hw", "dhw"}},
      {.name = "dymDims", .value_name = "NAME:D,..;..", .help = "shapes to run a dynamic dims model at",
       .group = "Model and input", .aliases = {"dym_dims", "dd"}},
      {.name = "batchsize", .value_name = "N", .help = "batch size for throughput (default: dim 0 of input 0)",
       .group = "Model and input", .aliases = {"batch_size"}},
      {.name = "batch", .value_name = "N",
       .help = "the seed's --batch: --batchsize, and the batch profile of a dynamic-batch model",
       .group = "Model and input"},
      {.name = "output", .value_name = "DIR",
       .help = "write outputs to DIR/<time or --output_dirname>/ and DIR/<same>_summary.json", .group = "Output",
       .aliases = {"o"}},
      {.name = "output_dirname", .value_name = "NAME", .help = "subdirectory name instead of the time (needs --output)",
       .group = "Output", .aliases = {"od"}},
      {.name = "outfmt", .value_name = "FMT", .help = "output file format", .choices = {"BIN", "NPY", "TXT"},
       .group = "Output"},
      {.name = "loop", .value_name = "N", .help = "inferences per input (default 1)", .group = "Run",
       .aliases = {"l"}},
      {.name = "warmup_count", .value_name = "N", .help = "inferences before measuring (default 1)", .group = "Run",
       .aliases = {"wcount"}},
      {.name = "device", .value_name = "ID", .help = "device id 0..255 (one simulated device)", .group = "Run",
       .aliases = {"d"}},
      {.name = "backend", .value_name = "NAME",
       .help = "the backend that runs the model (default npusim, the simulated NPU; any backend plugin on the "
               "plugin search path: it compiles the .om's graph)",
       .group = "Run"},
      {.name = "soc_version", .value_name = "SOC",
       .help = "the simulated device's chip; an .om compiled for another is refused (default: the .om's)",
       .group = "Run"},
      {.name = "threads", .value_name = "N", .help = "host threads each simulated kernel may use (default: $ASC_NUM_THREADS, else every core)",
       .group = "Run"},
      {.name = "profiler",
       .help = "write an msprof-style profile to <output>/profiler (needs --output); under msprof (docs/msprof.md) "
               "the profile goes where msprof says without it",
       .boolean = true, .group = "Profiling and debugging", .aliases = {"pf"}},
      {.name = "dump", .help = "dump every task's outputs to <output>/dump (needs --output)", .boolean = true,
       .group = "Profiling and debugging"},
      {.name = "timing_only",
       .help = "simulate the timing only: the kernels are not computed (the simulated time does not depend on the "
               "data), so the summary and --profiler's profile come in milliseconds and no output files are written "
               "(not with --dump)",
       .boolean = true, .group = "Profiling and debugging"},
      {.name = "display_all_summary", .help = "also print H2D and D2H latency", .boolean = true,
       .group = "Profiling and debugging", .aliases = {"das"}},
      {.name = "debug", .help = "print the model description and every inference's device time", .boolean = true,
       .group = "Profiling and debugging"},
      {.name = "help", .help = "show this help", .boolean = true, .group = "Profiling and debugging",
       .aliases = {"h"}},
  };
  return specs;
}

constexpr Mapping kMappings[] = {
    {"model", "model"},
    {"input", "input"},
    {"pure_data_type", "pure_data_type"},
    {"dymBatch", "dym_batch"},
    {"dymHW", "dym_hw"},
    {"dymDims", "dym_dims"},
    {"batchsize", "batchsize"},
    {"batch", "batch"},
    {"output", "output"},
    {"output_dirname", "output_dirname"},
    {"outfmt", "outfmt"},
    {"loop", "loop"},
    {"warmup_count", "warmup_count"},
    {"backend", "backend"},
    {"soc_version", "soc_version"},
    {"threads", "threads"},
    {"profiler", "profiler"},
    {"dump", "dump"},
    {"timing_only", "timing_only"},
    {"display_all_summary", "display_all_summary"},
    {"debug", "debug"},
};

// ais_bench's integer checks (check_positive_integer / check_nonnegative_integer).
void check_integer(const host::ParsedFlags& flags, const std::string& name, std::int64_t minimum,
                   const std::string& kind) {
  if (!flags.has(name)) return;
  const std::string text = flags.get(name);
  std::size_t used = 0;
  std::int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < minimum)
    throw host::invalid_flag_value(name, text, text + " is an invalid " + kind + " int value");
}

}  // namespace

std::string usage() {
  return "usage: ais_bench --model=MODEL.om [--input=FILES|DIRS] [--output=DIR] [options]\n"
         "\n"
         "Runs an offline model (.om, from atc) on the simulated NPU the way ais_bench runs it on a card:\n"
         "warm-up, --loop inferences per input, outputs in ais_bench's file names, and its performance\n"
         "summary, where NPU_compute_time is the simulated device time of one inference. Also installed\n"
         "as ais-bench. Flags take --name=value or --name value; msit benchmark's spellings (-om,\n"
         "--dym-batch, --warmup-count, ...) are accepted too.\n"
         "\n" +
         host::format_flag_help(flag_specs()) +
         "\n"
         "Exit status: 0 on success, 10 + the error class digit on a coded error (EE5008 bad command\n"
         "line -> 15, EE4001 missing model -> 14, EE8003 input of the wrong size -> 18, ...).\n"
         "docs/ais_bench.md describes the outputs, the summary and the dump format.\n";
}

Invocation parse_command_line(const std::string& program, const std::vector<std::string>& arguments) {
  const host::ParsedFlags flags = host::parse_ascend_flags("ais_bench", flag_specs(), arguments);
  Invocation invocation;
  invocation.help = flags.get_bool("help");
  if (invocation.help) return invocation;
  if (!flags.has("model") || flags.get("model").empty())
    throw Error(ErrorCode::UsageError, "the following arguments are required: --model/-m; run `ais_bench --help`");
  check_integer(flags, "loop", 1, "positive");
  check_integer(flags, "warmup_count", 0, "nonnegative");
  check_integer(flags, "batchsize", 1, "positive");
  check_integer(flags, "batch", 1, "positive");
  check_integer(flags, "dymBatch", 1, "positive");
  check_integer(flags, "threads", 1, "positive");
  if (flags.get("device").find(',') != std::string::npos)
    throw host::invalid_flag_value("device", flags.get("device"), "one simulated device: give a single device id");
  check_integer(flags, "device", 0, "nonnegative");
  if (flags.has("device") && std::stoll(flags.get("device")) > 255)
    throw host::invalid_flag_value("device", flags.get("device"), "valid value range is [0, 255]");

  invocation.model = flags.get("model");
  if (flags.has("backend")) invocation.backend = flags.get("backend");
  for (const Mapping& mapping : kMappings)
    if (flags.has(mapping.flag)) invocation.params[mapping.param] = flags.get(mapping.flag);
  std::string command_line = program;
  for (const std::string& argument : arguments) command_line += "\n" + argument;
  invocation.params["command_line"] = command_line;
  return invocation;
}

}  // namespace asc::ais_bench
