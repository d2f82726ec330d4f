// RunOptions on the reference backend: dump_dir, profile_sink, threads.
#include <doctest/doctest.h>

#include <asc/sdk/backend.hpp>
#include <asc/sdk/io.hpp>
#include <climits>
#include <fstream>
#include <nlohmann/json.hpp>

#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// y = MatMul(Relu(Add(x, bias)), w); the Add node's name has a '/' as exported models' do.
Graph named_graph() {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {2, 3})}, {"y"});
  graph.initializers["bias"] = floats({3}, {0.5f, 0.5f, -1.0f});
  graph.initializers["w"] = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  add_node(graph, "block/add", "Add", {"x", "bias"}, {"sum"});
  add_node(graph, "relu", "Relu", {"sum"}, {"activated"}).provenance = {"relu", "original_relu"};
  add_node(graph, "matmul", "MatMul", {"activated", "w"}, {"y"});
  return graph;
}

const Tensor kRunInput = floats({2, 3}, {1, -2, 3, -4, 5, -6});

class RecordingSink : public ProfileSink {
 public:
  void record(const ProfileEvent& event) override { events.push_back(event); }
  std::vector<ProfileEvent> events;
};

}  // namespace

TEST_CASE("dump_dir gets every node's outputs, named per node, and a manifest") {
  TempDir dir;
  RunOptions options;
  options.dump_dir = dir / "dump";
  compile_reference(named_graph())->execute({{"x", kRunInput}}, options);

  // Hand-computed: sum = x + bias, relu(sum), y (see execute_test.cpp).
  CHECK(values_of(read_npy(dir / "dump/block_add.0.npy")) ==
        std::vector<float>{1.5f, -1.5f, 2, -3.5f, 5.5f, -7});
  CHECK(values_of(read_npy(dir / "dump/relu.0.npy")) == std::vector<float>{1.5f, 0, 2, 0, 5.5f, 0});
  CHECK(values_of(read_npy(dir / "dump/matmul.0.npy")) == std::vector<float>{11.5f, 15, 16.5f, 22});

  std::ifstream in(dir / "dump/manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  const nlohmann::json& nodes = manifest.at("nodes");
  REQUIRE(nodes.size() == 3);
  CHECK(nodes.at("block/add").at("op_type") == "Add");
  CHECK(nodes.at("block/add").at("outputs").at(0).at("file") == "block_add.0.npy");
  CHECK(nodes.at("block/add").at("outputs").at(0).at("value") == "sum");
  CHECK(nodes.at("relu").at("provenance") == nlohmann::json::array({"relu", "original_relu"}));
  CHECK(nodes.at("matmul").at("outputs").at(0).at("shape") == nlohmann::json::array({2, 2}));
  CHECK(nodes.at("matmul").at("outputs").at(0).at("dtype") == "float32");
}

TEST_CASE("a profile sink gets one event per node, in order, with provenance and host time") {
  RecordingSink sink;
  RunOptions options;
  options.profile_sink = &sink;
  compile_reference(named_graph())->execute({{"x", kRunInput}}, options);
  REQUIRE(sink.events.size() == 3);
  CHECK(sink.events[0].op_name == "block/add");
  CHECK(sink.events[0].op_type == "Add");
  CHECK(sink.events[0].input_shapes == "2,3;3");
  CHECK(sink.events[0].input_dtypes == "FLOAT;FLOAT");
  CHECK(sink.events[1].provenance == std::vector<std::string>{"relu", "original_relu"});
  CHECK(sink.events[2].op_name == "matmul");
  CHECK(sink.events[2].output_shapes == "2,2");
  for (std::size_t i = 0; i < sink.events.size(); ++i) {
    CHECK(sink.events[i].task_id == static_cast<int>(i));
    CHECK(sink.events[i].duration_us >= 0);
    if (i > 0) CHECK(sink.events[i].start_us >= sink.events[i - 1].start_us + sink.events[i - 1].duration_us);
  }
}

TEST_CASE("RunOptions::threads reaches the kernels") {
  OpRegistry ops;
  int seen_threads = 0;
  ops.add(OpDefinition{"",
                       "Probe",
                       1,
                       INT_MAX,
                       {},
                       [&](KernelContext& context) {
                         seen_threads = context.threads;
                         context.outputs[0] = context.input(0);
                       },
                       {},
                       "test"});
  Graph graph = make_graph({tensor_info("x", DType::Float32, {1})}, {"y"});
  add_node(graph, "probe", "Probe", {"x"}, {"y"});
  RunOptions options;
  options.threads = 3;
  reference_backend().compile(graph, ops, {})->execute({{"x", floats({1}, {1})}}, options);
  CHECK(seen_threads == 3);
}
