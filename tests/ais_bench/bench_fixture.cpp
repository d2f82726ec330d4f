#include "bench_fixture.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "temp_dir.hpp"

namespace asc::test {
namespace {

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

// The ONNX model an .om is compiled from, and the compile settings beyond the defaults.
struct Recipe {
  std::string onnx;
  std::string settings;
};

Recipe recipe_of(const std::string& name) {
  if (name == "dyn_relu") return {"dyn_relu", " --set input_shape=x:-1,4 --set dynamic_batch_size=1,2,4"};
  // Kept at float32 on a chip with float32 cube kernels: no casts inserted, tasks are the fused graph's nodes.
  if (name == "conv_relu_fp32")
    return {"conv_relu", " --set soc_version=Ascend910B1 --set precision_mode=must_keep_origin_dtype"};
  // A SoC without published calibration points.
  if (name == "conv_relu_910b3") return {"conv_relu", " --set soc_version=Ascend910B3"};
  return {name, ""};
}

void compile(const std::string& name) {
  const Recipe recipe = recipe_of(name);
  const std::filesystem::path dir = fixture_dir();
  const CommandResult result =
      run(std::string(ASC_EXECUTABLE) + " run " + ASC_SOURCE_DIR + "/configs/pipelines/atc.yaml --set model=" +
          quoted(dir / (recipe.onnx + ".onnx")) + " --set output=" + quoted(dir / (name + ".om")) +
          " --set soc_version=Ascend310P3 --set enable_scope_fusion=true" + recipe.settings);
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
}

}  // namespace

const std::filesystem::path& fixture_dir() {
  static const TempDir dir;
  return dir.path();
}

std::filesystem::path om(const std::string& model) {
  static std::map<std::string, std::filesystem::path> compiled;
  if (const auto found = compiled.find(model); found != compiled.end()) return found->second;
  static const bool generated = [] {
    const CommandResult result =
        run(std::string(ASC_TEST_PYTHON) + " " + ASC_MAKE_MODELS_SCRIPT + " " + quoted(fixture_dir()));
    INFO(result.out << result.err);
    REQUIRE(result.exit_code == 0);
    return true;
  }();
  (void)generated;
  compile(model);
  return compiled[model] = fixture_dir() / (model + ".om");
}

CommandResult run(const std::string& command) {
  static int counter = 0;
  const std::filesystem::path out = fixture_dir() / ("cmd" + std::to_string(++counter) + ".out");
  const std::filesystem::path err = fixture_dir() / ("cmd" + std::to_string(counter) + ".err");
  const int status = std::system((command + " > " + quoted(out) + " 2> " + quoted(err)).c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

CommandResult ais_bench(const std::string& arguments) { return run(std::string(ASC_AIS_BENCH) + " " + arguments); }

nlohmann::json read_json(const std::filesystem::path& file) { return nlohmann::json::parse(read_text(file)); }

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<float> read_floats(const std::filesystem::path& raw_file) {
  const std::string bytes = read_text(raw_file);
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

void write_floats(const std::filesystem::path& raw_file, const std::vector<float>& values) {
  std::ofstream out(raw_file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
}

std::filesystem::path only_entry(const std::filesystem::path& dir, const std::string& prefix) {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) found.push_back(entry.path());
  REQUIRE(found.size() == 1);
  return found.front();
}

std::vector<std::vector<std::string>> csv_rows(const std::filesystem::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_text(file));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream fields_in(line);
    for (std::string field; std::getline(fields_in, field, ',');) fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

}  // namespace asc::test
