// `asc run configs/pipelines/run_reference.yaml` end to end: a model made with onnx.helper, its
// outputs checked against numpy's (make_model.py).
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// Runs `command` through the shell with its output in `log`; shows the output when it fails.
int run_command(const std::string& command, const std::filesystem::path& log) {
  const int status = std::system((command + " > '" + log.string() + "' 2>&1").c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  INFO("command: " << command << "\noutput:\n" << text.str());
  CHECK(status == 0);
  return status;
}

void make_model(const TempDir& dir) {
  REQUIRE(run_command(
              std::string(ASC_TEST_PYTHON) + " " + ASC_MAKE_MODEL_SCRIPT + " '" + dir.path().string() + "'",
              dir / "make_model.log") == 0);
}

int run_pipeline(const TempDir& dir, const std::string& settings) {
  const std::string command = std::string(ASC_EXECUTABLE) + " run " + ASC_SOURCE_DIR +
                              "/configs/pipelines/run_reference.yaml --set model='" +
                              (dir / "model.onnx").string() + "' " + settings;
  return run_command(command, dir / "asc.log");
}

void check_close(const Tensor& actual, const Tensor& expected) {
  REQUIRE(actual.dtype() == expected.dtype());
  REQUIRE(actual.shape() == expected.shape());
  const std::vector<float> a = values_of(actual), e = values_of(expected);
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(std::abs(a[i] - e[i]) <= 1e-5f + 1e-5f * std::abs(e[i]));
}

}  // namespace

TEST_CASE("asc run run_reference.yaml with input files writes numpy's results") {
  TempDir dir;
  make_model(dir);
  REQUIRE(run_pipeline(dir, "--set inputs='" + (dir / "a.npy").string() + "," + (dir / "b.npy").string() +
                                "' --set output_dir='" + (dir / "out").string() + "'") == 0);
  check_close(read_npy(dir / "out/y.npy"), read_npy(dir / "y_expected.npy"));
  // "relu/out" is written with '/' replaced.
  check_close(read_npy(dir / "out/relu_out.npy"), read_npy(dir / "relu_expected.npy"));
}

TEST_CASE("asc run run_reference.yaml without inputs uses seeded random inputs") {
  TempDir dir;
  make_model(dir);
  const auto run = [&](const std::string& name, const std::string& extra) {
    REQUIRE(run_pipeline(dir, "--set output_dir='" + (dir / name).string() + "' " + extra) == 0);
    return values_of(read_npy(dir / name / "relu_out.npy"));
  };
  const std::vector<float> first = run("seed5", "--set seed=5");
  CHECK(first.size() == 3);  // the symbolic N becomes 1
  CHECK(run("seed5_again", "--set seed=5") == first);
  CHECK(run("seed6", "--set seed=6") != first);
  for (const float v : first) CHECK((v >= 0 && v < 2));  // relu(a + b), a and b in [-1, 1)

  CHECK(run("shaped", "--set input_shape='a:4,3;b:4,3'").size() == 12);
  CHECK(read_npy(dir / "shaped/y.npy").shape() == Shape{4, 4});
}

TEST_CASE("asc run run_reference.yaml with dump_dir dumps every node") {
  TempDir dir;
  make_model(dir);
  REQUIRE(run_pipeline(dir, "--set inputs='" + (dir / "a.npy").string() + "," + (dir / "b.npy").string() +
                                "' --set output_dir='" + (dir / "out").string() + "' --set dump_dir='" +
                                (dir / "dump").string() + "'") == 0);
  check_close(read_npy(dir / "dump/relu.0.npy"), read_npy(dir / "relu_expected.npy"));
  check_close(read_npy(dir / "dump/matmul.0.npy"), read_npy(dir / "y_expected.npy"));
  CHECK(std::filesystem::exists(dir / "dump/add.0.npy"));
  CHECK(std::filesystem::exists(dir / "dump/manifest.json"));
}

TEST_CASE("asc run run_reference.yaml: threads default to ASC_NUM_THREADS, and --set threads wins over it") {
  TempDir dir;
  make_model(dir);
  const std::string command = std::string(ASC_EXECUTABLE) + " run " + ASC_SOURCE_DIR +
                              "/configs/pipelines/run_reference.yaml --set model='" + (dir / "model.onnx").string() +
                              "' --set inputs='" + (dir / "a.npy").string() + "," + (dir / "b.npy").string() +
                              "' --set output_dir='" + (dir / "out").string() + "'";
  // The pipeline's default (0) reads the variable: a bad value is refused with its name.
  const int refused = std::system(("ASC_NUM_THREADS=abc " + command + " > '" + (dir / "bad.log").string() + "' 2>&1").c_str());
  CHECK(refused != 0);
  std::ifstream bad(dir / "bad.log");
  std::stringstream text;
  text << bad.rdbuf();
  CHECK(text.str().find("EE5007") != std::string::npos);
  CHECK(text.str().find("ASC_NUM_THREADS") != std::string::npos);
  // A count given in the pipeline does not read it, and the run succeeds.
  CHECK(run_command("ASC_NUM_THREADS=abc " + command + " --set threads=2", dir / "set.log") == 0);
  CHECK(run_command("ASC_NUM_THREADS=2 " + command, dir / "variable.log") == 0);
  check_close(read_npy(dir / "out/y.npy"), read_npy(dir / "y_expected.npy"));
}
