// Dynamic-shape profiles: one CompiledProfile per --dynamic_batch_size / --dynamic_image_size /
// --dynamic_dims entry, each with static shapes; ATC's rules as EE1009; profile selection per call.
#include <doctest/doctest.h>

#include "compiler/compile_model.hpp"
#include "npusim_backend.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

npusim::CompiledModel compile_dynamic(const Graph& graph, BackendOptions options) {
  options["soc_dir"] = ASC_NPUSIM_SOURCE_SOC_DIR;
  options["soc_version"] = "Ascend310P3";
  return npusim::compile_model(graph, plugin_registry().ops(), npusim::parse_compile_options(options));
}

// x[batch, 256] -> Relu -> y.
Graph dynamic_batch_graph() {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {Dim::symbolic("batch"), 256})}, {"y"});
  add_node(graph, "relu", "Relu", {"x"}, {"y"});
  graph.values["y"] = tensor_info("y", DType::Float32, {Dim::symbolic("batch"), 256});
  return graph;
}

}  // namespace

TEST_CASE("dynamic_batch_size 1,2,4: three static profiles, input bytes 1024 per batch") {
  const auto model = compile_dynamic(dynamic_batch_graph(), {{"dynamic_batch_size", "1,2,4"}});
  CHECK(model.dynamic_kind == "batch");
  REQUIRE(model.profiles.size() == 3);
  const std::vector<std::int64_t> batches = {1, 2, 4};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& profile = model.profiles[i];
    CHECK(profile.label == "batch=" + std::to_string(batches[i]));
    CHECK(profile.input_shapes.at("x") == Shape{batches[i], 256});
    CHECK(profile.memory.input_bytes == 1024 * batches[i]);  // fp32 input, 1024 bytes per row
    CHECK(&model.profile_for({{"x", {batches[i], 256}}}) == &profile);
  }
  const Error error = error_from([&] { model.profile_for({{"x", {3, 256}}}); });
  CHECK(error.code() == ErrorCode::InputMismatch);
  CHECK(error.message().find("batch=4") != std::string::npos);

  const auto executable = npusim::NpusimBackend().compile(
      dynamic_batch_graph(), plugin_registry().ops(),
      {{"soc_version", "Ascend310P3"}, {"soc_dir", ASC_NPUSIM_SOURCE_SOC_DIR}, {"dynamic_batch_size", "1,2,4"}});
  CHECK(executable->execute({{"x", floats({2, 256}, std::vector<float>(512, -1.0f))}}, {}).at("y").shape() == Shape{2, 256});
  CHECK(error_from([&] { executable->execute({{"x", floats({3, 256}, std::vector<float>(768, 1.0f))}}, {}); }).code() ==
        ErrorCode::InputMismatch);
}

TEST_CASE("shape arithmetic (Shape -> Gather -> Concat -> Reshape) resolves per profile") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {-1, 4, 4})}, {"y"});
  graph.initializers["zero"] = Tensor::from_vector<std::int64_t>({1}, {0});
  graph.initializers["minus_one"] = Tensor::from_vector<std::int64_t>({1}, {-1});
  add_node(graph, "shape", "Shape", {"x"}, {"s"});
  add_node(graph, "gather", "Gather", {"s", "zero"}, {"n"});
  Node& concat = add_node(graph, "concat", "Concat", {"n", "minus_one"}, {"target"});
  concat.attributes.set("axis", std::int64_t{0});
  add_node(graph, "reshape", "Reshape", {"x", "target"}, {"r"});
  add_node(graph, "relu", "Relu", {"r"}, {"y"});
  const auto model = compile_dynamic(graph, {{"dynamic_dims", "2;3"}});
  REQUIRE(model.profiles.size() == 2);
  CHECK(model.profiles[0].label == "dims=2");
  for (const auto& profile : model.profiles)
    for (const auto& value : profile.values)
      if (value.value == "r") CHECK(value.shape == Shape{profile.input_shapes.at("x")[0], 16});
}

TEST_CASE("dynamic_image_size and dynamic_dims profiles") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1, 3, -1, -1})}, {"y"});
  add_node(graph, "relu", "Relu", {"x"}, {"y"});
  const auto images = compile_dynamic(graph, {{"dynamic_image_size", "224,224;320,160"}});
  CHECK(images.dynamic_kind == "image_size");
  CHECK(images.profiles[1].label == "image_size=320x160");
  CHECK(images.profiles[1].input_shapes.at("x") == Shape{1, 3, 320, 160});
  const auto dims = compile_dynamic(graph, {{"dynamic_dims", "8,8;16,32"}});
  CHECK(dims.profiles[1].input_shapes.at("x") == Shape{1, 3, 16, 32});
}

TEST_CASE("dynamic-shape flags that do not fit the model are EE1009 saying what to change") {
  Graph image = make_graph({tensor_info("x", DType::Float32, {1, 3, -1, -1})}, {"y"});
  add_node(image, "relu", "Relu", {"x"}, {"y"});
  Graph fixed = make_graph({tensor_info("x", DType::Float32, {1, 256})}, {"y"});
  add_node(fixed, "relu", "Relu", {"x"}, {"y"});
  struct Case {
    const Graph* graph;
    BackendOptions options;
    const char* says;
  };
  const Graph batch = dynamic_batch_graph();
  const std::vector<Case> cases = {
      {&batch, {{"dynamic_batch_size", "1,2"}, {"dynamic_dims", "1;2"}}, "mutually exclusive"},
      {&image, {}, "dynamic dims"},
      {&batch, {{"dynamic_batch_size", "4"}}, "1 profile(s)"},
      {&batch, {{"dynamic_batch_size", "1,0"}}, "'0' is not a positive integer"},
      {&batch, {{"dynamic_batch_size", "2,2"}}, "twice"},
      {&batch, {{"dynamic_image_size", "224,224;320,320"}}, "only the H and W"},
      {&image, {{"dynamic_batch_size", "1,2"}}, "only the batch dim"},
      {&image, {{"dynamic_image_size", "224;320"}}, "\"height,width\""},
      {&image, {{"dynamic_dims", "1,2;3"}}, "2 dynamic dim(s)"},
      {&fixed, {{"dynamic_batch_size", "1,2"}}, "every input"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.says);
    const Error error = error_from([&] { compile_dynamic(*c.graph, c.options); });
    CHECK(error.code() == ErrorCode::InputShapeInvalid);
    CHECK_MESSAGE(error.message().find(c.says) != std::string::npos, error.message());
  }
}
