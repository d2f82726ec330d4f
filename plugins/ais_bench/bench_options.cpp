#include "bench_options.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>
#include <sstream>

namespace asc::bench {
namespace {

constexpr const char* kOptionsStage = "ais_bench.run";

[[noreturn]] void bad_value(const std::string& message) {
  throw Error(ErrorCode::ConfigBadValue, std::string(kOptionsStage) + ": " + message);
}

[[noreturn]] void bad_combination(const std::string& message) {
  throw Error(ErrorCode::UsageError, std::string(kOptionsStage) + ": " + message);
}

std::string optional_string(const StageParams& params, const std::string& name) {
  return params.has(name) ? params.get_string(name) : "";
}

OutputFormat parse_outfmt(const std::string& text) {
  if (text == "BIN") return OutputFormat::Bin;
  if (text == "NPY") return OutputFormat::Npy;
  if (text == "TXT") return OutputFormat::Txt;
  bad_value("outfmt: invalid choice: '" + text + "' (choose from 'NPY', 'BIN', 'TXT')");
}

PureDataType parse_pure_data_type(const std::string& text) {
  if (text == "zero") return PureDataType::Zero;
  if (text == "random") return PureDataType::Random;
  bad_value("pure_data_type: invalid choice: '" + text + "' (choose from 'zero', 'random')");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

std::string extension_of(OutputFormat format) {
  switch (format) {
    case OutputFormat::Bin: return "bin";
    case OutputFormat::Npy: return "npy";
    case OutputFormat::Txt: return "txt";
  }
  return "bin";
}

BenchOptions parse_bench_options(const StageParams& params) {
  BenchOptions options;
  options.model = params.get_path("model");
  options.inputs = params.has("input") ? params.get_list("input") : std::vector<std::string>{};
  options.output = optional_string(params, "output");
  options.output_dirname = optional_string(params, "output_dirname");
  // One directory inside --output: "../x", "a/b" or "/abs" would put the outputs, the summary
  // beside them and every name derived from them somewhere else.
  if (!options.output_dirname.empty() &&
      (options.output_dirname == "." || options.output_dirname == ".." ||
       options.output_dirname.find('/') != std::string::npos))
    bad_value("output_dirname '" + options.output_dirname +
              "' must be one directory name inside --output (no '/', not '.' or '..')");
  options.outfmt = parse_outfmt(params.get_string("outfmt"));
  options.loop = params.get_int("loop");
  if (options.loop <= 0) bad_value("loop: " + std::to_string(options.loop) + " is an invalid positive int value");
  options.warmup_count = params.get_int("warmup_count");
  if (options.warmup_count < 0)
    bad_value("warmup_count: " + std::to_string(options.warmup_count) + " is an invalid nonnegative int value");
  if (const std::int64_t batchsize = params.get_int("batchsize"); batchsize != 0) {
    if (batchsize < 0) bad_value("batchsize: " + std::to_string(batchsize) + " is an invalid positive int value");
    options.batchsize = batchsize;
  }
  options.dym_batch = params.get_int("dym_batch");
  if (options.dym_batch < 0) bad_value("dym_batch: " + std::to_string(options.dym_batch) + " is not a batch size");
  options.batch = params.get_int("batch");
  if (options.batch < 0) bad_value("batch: " + std::to_string(options.batch) + " is not a batch size");
  if (options.batch != 0 && !options.batchsize) options.batchsize = options.batch;
  options.dym_hw = optional_string(params, "dym_hw");
  options.dym_dims = optional_string(params, "dym_dims");
  options.pure_data_type = parse_pure_data_type(params.get_string("pure_data_type"));
  options.profiler = params.get_bool("profiler");
  options.dump = params.get_bool("dump");
  options.timing_only = params.get_bool("timing_only");
  options.display_all_summary = params.get_bool("display_all_summary");
  options.debug = params.get_bool("debug");
  options.backend = params.get_string("backend");
  options.soc_version = optional_string(params, "soc_version");
  options.soc_dir = optional_string(params, "soc_dir");
  options.threads = threads_or_default(params.get_int("threads"), "ais_bench: 'threads'");
  options.command_line = lines_of(optional_string(params, "command_line"));

  // ais_bench's own checks, with its reasons.
  if (options.profiler && options.dump)
    bad_combination("parameter --profiler cannot be true at the same time as parameter --dump, please check them!");
  if (options.timing_only && options.dump)
    bad_combination("parameter --timing_only computes no values, so there is nothing to --dump: give one of them");
  if ((options.profiler || options.dump) && options.output.empty())
    bad_combination("when dump or profiler, miss output path, please check them!");
  if (options.output.empty() && !options.output_dirname.empty())
    bad_combination(
        "parameter --output_dirname cann't be used alone. Please use it together with the parameter --output!");
  const int dynamic_choices = (options.dym_batch != 0) + !options.dym_hw.empty() + !options.dym_dims.empty();
  if (dynamic_choices > 1) bad_combination("give one of --dymBatch, --dymHW and --dymDims, not several");
  // Profiling measures the inferences themselves, as ais_bench's msprof run does.
  if (options.profiler && options.warmup_count != 0 && !options.inputs.empty()) options.warmup_count = 0;
  return options;
}

std::vector<ParamSpec> bench_param_specs() {
  return {
      {"model", ParamType::Path, true, "", "the .om model (compiled by atc or npusim.compile)"},
      {"input", ParamType::StringList, false, "",
       "input .bin/.npy files or directories, comma-separated, in model-input order (files: several per input "
       "are run one after another; directories: one per input, files matched in natural order); empty: generated"},
      {"output", ParamType::Path, false, "", "directory for results; empty: write no files"},
      {"output_dirname", ParamType::String, false, "",
       "subdirectory of output for the result files (default: the time, 2026_11_30-05_30_00)"},
      {"outfmt", ParamType::String, false, "BIN", "output file format: BIN, NPY or TXT"},
      {"loop", ParamType::Int, false, "1", "inferences per input sample"},
      {"warmup_count", ParamType::Int, false, "1", "inferences before measuring"},
      {"batchsize", ParamType::Int, false, "0",
       "batch size used for throughput (0: dim 0 of the first input as run)"},
      {"batch", ParamType::Int, false, "0",
       "the seed's --batch: batchsize, and on a dynamic-batch model the batch profile to run"},
      {"dym_batch", ParamType::Int, false, "0", "batch size of a dynamic-batch model (ais_bench --dymBatch)"},
      {"dym_hw", ParamType::String, false, "", "\"h,w\" of a dynamic image size model (--dymHW)"},
      {"dym_dims", ParamType::String, false, "", "\"name:1,600;name2:1,600\" of a dynamic dims model (--dymDims)"},
      {"pure_data_type", ParamType::String, false, "zero",
       "generated input when none is given: zero, or random (bytes 0..255, as ais_bench)"},
      {"profiler", ParamType::Bool, false, "false", "write an msprof-style PROF_* directory to output/profiler"},
      {"dump", ParamType::Bool, false, "false",
       "dump every task's outputs of the first measured inference to output/dump"},
      {"timing_only", ParamType::Bool, false, "false",
       "simulate the timing only (no kernels computed, no output files; not with dump)"},
      {"display_all_summary", ParamType::Bool, false, "false", "also print H2D and D2H latency"},
      {"debug", ParamType::Bool, false, "false", "print the model description and each inference's time"},
      {"backend", ParamType::String, false, "npusim",
       "the backend that runs the model: the one that wrote the file loads it, any other compiles the file's "
       "graph (asc plugins lists the backends)"},
      {"soc_version", ParamType::String, false, "",
       "the simulated device's chip; an .om compiled for another is an error (default: the .om's own)"},
      {"soc_dir", ParamType::Path, false, "", "directory of SoC files (default: $ASC_SOC_DIR, else the installed ones)"},
      {"threads", ParamType::Int, false, "0",
       "host threads each kernel may use (0: $ASC_NUM_THREADS, else every core)"},
      {"command_line", ParamType::String, false, "",
       "the invoking command's arguments, one per line, recorded as _summary.json's \"args\""},
  };
}

}  // namespace asc::bench
