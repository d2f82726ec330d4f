// Shared by the ais_bench tests: the test models compiled to .om once per process, and running
// the ais_bench executable.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace asc::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// The .om of a make_models.py model for Ascend310P3, force_fp16, scope fusion on ("add_mul",
// "conv_relu", "cast_add", "batch2"; "dyn_relu" with dynamic batch sizes 1, 2 and 4), or
// "conv_relu_fp32": conv_relu for Ascend910B1 under must_keep_origin_dtype.
std::filesystem::path om(const std::string& model);
// A directory kept for the whole test run (models, shared inputs).
const std::filesystem::path& fixture_dir();

// `ais_bench <arguments>`, stdout and stderr captured separately.
CommandResult ais_bench(const std::string& arguments);
// Any command through the shell.
CommandResult run(const std::string& command);

nlohmann::json read_json(const std::filesystem::path& file);
std::string read_text(const std::filesystem::path& file);
std::vector<float> read_floats(const std::filesystem::path& raw_file);
void write_floats(const std::filesystem::path& raw_file, const std::vector<float>& values);

// The one entry of `dir` whose name starts with `prefix` (the test fails when there is not
// exactly one).
std::filesystem::path only_entry(const std::filesystem::path& dir, const std::string& prefix);
// A CSV file's rows split at commas (the msprof files' fields hold no quoted commas).
std::vector<std::vector<std::string>> csv_rows(const std::filesystem::path& file);

}  // namespace asc::test
