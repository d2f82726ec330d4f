// Backend::compile -> Executable::save (.om) -> Backend::load: the loaded model runs the same
// numbers; an .om for another SoC than the run's soc_version is EE5007 naming both.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "npusim_backend.hpp"
#include "npusim_executable.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

Graph small_net() {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 16})}, {"y"});
  std::vector<float> weights(256);
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = 0.01f * static_cast<float>(i % 17) - 0.05f;
  graph.initializers["w"] = floats({16, 16}, weights);
  add_node(graph, "mm", "MatMul", {"x", "w"}, {"a"});
  add_node(graph, "relu", "Relu", {"a"}, {"y"});
  return graph;
}

BackendOptions options(const std::string& soc_version) {
  return {{"soc_version", soc_version}, {"soc_dir", ASC_NPUSIM_SOURCE_SOC_DIR}};
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("save then load: same outputs, same SoC; another SoC is EE5007") {
  TempDir dir;
  const std::filesystem::path om = dir / "net.om";
  const npusim::NpusimBackend backend;
  const auto compiled = backend.compile(small_net(), plugin_registry().ops(), options("Ascend310P3"));
  compiled->save(om);
  REQUIRE(std::filesystem::exists(om));

  std::vector<float> x(16);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.1f * static_cast<float>(i) - 0.7f;
  const TensorMap inputs = {{"x", floats({1, 16}, x)}};
  const auto loaded = backend.load(om, plugin_registry().ops(), options("Ascend310P3"));
  CHECK(values_of(loaded->execute(inputs, {}).at("y")) == values_of(compiled->execute(inputs, {}).at("y")));
  CHECK(dynamic_cast<const npusim::NpusimExecutable&>(*loaded).model().soc_version == "Ascend310P3");

  const Error error = error_from([&] { backend.load(om, plugin_registry().ops(), options("Ascend910")); });
  CHECK(error.code() == ErrorCode::ConfigBadValue);
  CHECK(error.message().find("Ascend310P3") != std::string::npos);
  CHECK(error.message().find("Ascend910") != std::string::npos);
}

TEST_CASE("asc pipelines: npusim.compile writes the .om, npusim.run om= runs it") {
  TempDir dir;
  const std::filesystem::path model = dir / "model.onnx";
  const std::string make = std::string(ASC_TEST_PYTHON) + " -c \"import onnx; from onnx import helper as h, TensorProto as T; "
                           "g = h.make_graph([h.make_node('Relu', ['x'], ['y'], name='relu')], 'g', "
                           "[h.make_tensor_value_info('x', T.FLOAT, ['n', 8])], [h.make_tensor_value_info('y', T.FLOAT, ['n', 8])]); "
                           "onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 17)]), '" + model.string() + "')\"";
  REQUIRE(std::system(make.c_str()) == 0);
  const std::filesystem::path compile_yaml = dir / "compile.yaml", run_yaml = dir / "run.yaml", om = dir / "m.om";
  std::ofstream(compile_yaml) << "name: compile\nplugins: [parser_onnx, ops_builtin, backend_npusim]\nstages:\n"
                                 "  - stage: onnx.load\n    with:\n      model: \"" << model.string() << "\"\n"
                              << "  - stage: npusim.compile\n    with:\n      output: \"" << om.string() << "\"\n"
                              << "      soc_version: Ascend310P3\n      soc_dir: \"" << ASC_NPUSIM_SOURCE_SOC_DIR << "\"\n"
                              << "      dynamic_batch_size: \"1,2\"\n      disable_reuse_memory: \"1\"\n";
  std::ofstream(run_yaml) << "name: run\nplugins: [ops_builtin, backend_npusim]\nstages:\n"
                             "  - stage: npusim.run\n    with:\n      om: \"" << om.string() << "\"\n"
                          << "      soc_dir: \"" << ASC_NPUSIM_SOURCE_SOC_DIR << "\"\n"
                          << "      input_shape: \"x:2,8\"\n      output_dir: \"" << (dir / "out").string() << "\"\n";
  for (const auto& yaml : {compile_yaml, run_yaml}) {
    const std::string command = std::string(ASC_EXECUTABLE) + " run '" + yaml.string() + "' --log info > '" +
                                (dir / "asc.log").string() + "' 2>&1";
    const int status = std::system(command.c_str());
    INFO(read_text(dir / "asc.log"));
    REQUIRE(status == 0);
    if (yaml == compile_yaml) {
      const std::string log = read_text(dir / "asc.log");
      CHECK(log.find("npusim.compile: wrote") != std::string::npos);
      CHECK(log.find("2 profile(s): batch=1, batch=2") != std::string::npos);
    }
  }
  CHECK(read_npy(dir / "out/y.npy").shape() == Shape{2, 8});
}
