#include <doctest/doctest.h>

#include <string>

#include "asc/sdk/error.hpp"
#include "asc/sdk/op_registry.hpp"

namespace {

asc::OpDefinition definition(std::string domain, std::string op, std::int64_t since, std::int64_t end,
                             std::string plugin) {
  asc::OpDefinition d;
  d.domain = std::move(domain);
  d.op_type = std::move(op);
  d.since_version = since;
  d.end_version = end;
  d.plugin = std::move(plugin);
  return d;
}

asc::Node node(std::string name, std::string op, std::vector<std::string> inputs, std::string domain = "") {
  asc::Node n;
  n.name = std::move(name);
  n.op_type = std::move(op);
  n.domain = std::move(domain);
  n.inputs = std::move(inputs);
  n.outputs = {n.name + "_out"};
  return n;
}

}  // namespace

TEST_CASE("find picks the definition covering the opset") {
  asc::OpRegistry registry;
  registry.add(definition("", "Relu", 6, 13, "ops_a"));
  registry.add(definition("", "Relu", 14, INT_MAX, "ops_a"));
  CHECK(registry.find("", "Relu", 5) == nullptr);
  REQUIRE(registry.find("", "Relu", 13) != nullptr);
  CHECK(registry.find("", "Relu", 13)->end_version == 13);
  CHECK(registry.find("ai.onnx", "Relu", 17)->since_version == 14);
  CHECK(registry.knows("", "Relu"));
  CHECK_FALSE(registry.knows("", "Elu"));
  CHECK(registry.all().size() == 2);
}

TEST_CASE("overlapping version ranges are refused with EE6007 naming both plugins") {
  asc::OpRegistry registry;
  registry.add(definition("", "Conv", 1, 10, "ops_builtin"));
  try {
    registry.add(definition("ai.onnx", "Conv", 10, 11, "my_ops"));
    FAIL("expected EE6007");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::PluginDuplicate);
    CHECK(error.message().find("ops_builtin") != std::string::npos);
    CHECK(error.message().find("my_ops") != std::string::npos);
    CHECK(error.message().find("Conv") != std::string::npos);
  }
  CHECK_NOTHROW(registry.add(definition("", "Conv", 11, 11, "my_ops")));
  CHECK_NOTHROW(registry.add(definition("com.example", "Conv", 1, 10, "my_ops")));
}

TEST_CASE("check_all_ops_supported lists every unsupported node in one EE2001") {
  asc::OpRegistry registry;
  registry.add(definition("", "Relu", 6, 13, "ops_builtin"));
  asc::Graph graph;
  graph.name = "net";
  graph.opset_imports[""] = 17;
  graph.opset_imports["com.example"] = 2;
  graph.inputs = {"x"};
  graph.values["x"] = asc::ValueInfo::from_shape("x", asc::DType::Float32, {1, 3});
  graph.initializers["k"] = asc::Tensor(asc::DType::Int64, {2});
  graph.add_node(node("relu", "Relu", {"x"}));
  graph.add_node(node("mystery", "Frobnicate", {"x", "k"}));
  graph.add_node(node("custom", "Special", {"relu_out"}, "com.example"));

  try {
    asc::check_all_ops_supported(registry, graph);
    FAIL("expected EE2001");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::UnsupportedOperator);
    const std::string message = error.message();
    CAPTURE(message);
    CHECK(message.find("3 node(s)") != std::string::npos);
    // Relu is registered, but only up to opset 13.
    CHECK(message.find("node 'relu' (Relu) domain 'ai.onnx' opset 17, inputs (float32[1,3])") != std::string::npos);
    CHECK(message.find("6-13") != std::string::npos);
    CHECK(message.find("node 'mystery' (Frobnicate) domain 'ai.onnx' opset 17, inputs (float32[1,3], int64[2])") !=
          std::string::npos);
    CHECK(message.find("node 'custom' (com.example.Special) domain 'com.example' opset 2, inputs (?)") !=
          std::string::npos);
  }

  registry.add(definition("", "Relu", 14, INT_MAX, "ops_builtin"));
  registry.add(definition("", "Frobnicate", 1, INT_MAX, "ops_builtin"));
  registry.add(definition("com.example", "Special", 1, 5, "ops_custom"));
  CHECK_NOTHROW(asc::check_all_ops_supported(registry, graph));
  CHECK(asc::find_op(registry, graph, *graph.find_node("custom"))->plugin == "ops_custom");
}

TEST_CASE("contexts name the node when an input is missing") {
  const asc::Node relu = node("r", "Relu", {""});
  asc::KernelContext kernel{relu, 14, {nullptr}, {}};
  CHECK_FALSE(kernel.has_input(0));
  try {
    kernel.input(0);
    FAIL("expected EE2003");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::InvalidOperator);
    CHECK(error.message().find("node 'r' (Relu)") != std::string::npos);
  }
  asc::InferenceContext inference{relu, 14, {nullptr}, {}, {}};
  CHECK_THROWS_AS(inference.input(0), asc::Error);
  CHECK(inference.input_value(3) == nullptr);
}
