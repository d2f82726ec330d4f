// ais_bench.run's parameters, named and checked as ais_bench names and checks its options
// (reference §3): --model, --input, --output, --output_dirname, --outfmt, --loop,
// --warmup_count, --batchsize, --dymBatch, --dymHW, --dymDims, --pure_data_type, --profiler,
// --dump, --display_all_summary, --debug; and this project's --timing_only.
#pragma once

#include <asc/sdk/pipeline.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace asc::bench {

enum class OutputFormat { Bin, Npy, Txt };
enum class PureDataType { Zero, Random };

struct BenchOptions {
  std::filesystem::path model;
  std::vector<std::string> inputs;             // files or directories (comma-separated)
  std::filesystem::path output;                // "" = write no output files
  std::string output_dirname;                  // "" = a timestamp, 2026_11_30-05_30_00
  OutputFormat outfmt = OutputFormat::Bin;
  std::int64_t loop = 1;
  std::int64_t warmup_count = 1;
  std::optional<std::int64_t> batchsize;      // for throughput only; default: input 0's dim 0
  std::int64_t dym_batch = 0;                 // 0: not set
  std::int64_t batch = 0;                     // the seed's --batch: the batch size, and the batch
                                              // profile of a dynamic-batch model (0: not set)
  std::string dym_hw;                         // "h,w"
  std::string dym_dims;                       // "name:1,600;name2:1,600"
  PureDataType pure_data_type = PureDataType::Zero;
  bool profiler = false, dump = false, display_all_summary = false, debug = false;
  bool timing_only = false;                   // RunOptions::timing_only: no kernels, no output files
  std::string backend = "npusim";             // the backend that runs the model (--backend)
  std::string soc_version;                    // the simulated device's chip ("" = the .om's own)
  std::string soc_dir;                        // where SoC files are ("" = default lookup)
  int threads = 1;
  std::vector<std::string> command_line;      // the "args" of _summary.json
};

// Throws EE5007 (bad value) or EE5008 (options that do not go together) with ais_bench's reason.
BenchOptions parse_bench_options(const StageParams& params);

// The stage's parameter declarations.
std::vector<ParamSpec> bench_param_specs();

// "BIN" -> "bin": the extension of output files.
std::string extension_of(OutputFormat format);

}  // namespace asc::bench
