// `asc run configs/pipelines/run_npusim.yaml` end to end, and the one-line swap from run_reference.yaml.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

std::vector<std::string> pipeline_lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("run_npusim.yaml differs from run_reference.yaml in the backend stage and the soc variables") {
  const std::string pipelines = std::string(ASC_SOURCE_DIR) + "/configs/pipelines/";
  const std::vector<std::string> reference = pipeline_lines_of(pipelines + "run_reference.yaml");
  const std::vector<std::string> npusim = pipeline_lines_of(pipelines + "run_npusim.yaml");
  std::vector<std::string> only_npusim;
  for (const std::string& line : npusim)
    if (line.rfind('#', 0) != 0 && std::find(reference.begin(), reference.end(), line) == reference.end())
      only_npusim.push_back(line);
  const std::vector<std::string> expected = {
      "name: run_npusim",
      "description: Run a model on the simulated NPU and write its outputs as .npy files",
      "plugins: [parser_onnx, ops_builtin, backend_npusim]",
      "  soc_version: Ascend310P3",
      "  precision_mode: force_fp16",
      "  profile_dir: \"\"",
      "  - stage: npusim.run",
      "      soc_version: \"${soc_version}\"",
      "      precision_mode: \"${precision_mode}\"",
      "      profile_dir: \"${profile_dir}\""};
  CHECK(only_npusim == expected);
}

TEST_CASE("asc run run_npusim.yaml writes outputs and an msprof profile") {
  TempDir dir;
  const std::filesystem::path model = dir / "model.onnx";
  const std::string make = std::string(ASC_TEST_PYTHON) + " -c \"import onnx; from onnx import helper as h, TensorProto as T; "
                           "g = h.make_graph([h.make_node('Relu', ['x'], ['y'], name='relu')], 'g', "
                           "[h.make_tensor_value_info('x', T.FLOAT, [2, 3])], [h.make_tensor_value_info('y', T.FLOAT, [2, 3])]); "
                           "onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 17)]), '" + model.string() + "')\"";
  REQUIRE(std::system(make.c_str()) == 0);
  const std::string command = std::string(ASC_EXECUTABLE) + " run " + ASC_SOURCE_DIR +
                              "/configs/pipelines/run_npusim.yaml --set model='" + model.string() +
                              "' --set output_dir='" + (dir / "out").string() + "' --set profile_dir='" +
                              (dir / "prof").string() + "' --set soc_version=Ascend910B3 > '" +
                              (dir / "asc.log").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream log(dir / "asc.log");
  std::stringstream text;
  text << log.rdbuf();
  INFO(text.str());
  REQUIRE(status == 0);
  const Tensor y = read_npy(dir / "out/y.npy");
  CHECK(y.shape() == Shape{2, 3});
  int profiles = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "prof"))
    profiles += std::filesystem::is_directory(entry.path() / "mindstudio_profiler_output") ? 1 : 0;
  CHECK(profiles == 1);
}
