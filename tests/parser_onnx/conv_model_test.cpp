// A small conv model: nodes, attributes, initializer values, inferred shapes, provenance and
// metadata, and input shape overrides on it.
#include <doctest/doctest.h>

#include "parser_fixture.hpp"

namespace asc::test {

TEST_CASE("conv model parses into nodes, attributes, initializers and inferred shapes") {
  const auto path = model_path("conv.onnx");
  const Graph graph = parse(path);

  CHECK(node_names(graph) == std::vector<std::string>{"conv1", "LeakyRelu_1", "pool", "scale_const", "mul", "flatten"});
  std::vector<std::string> ops;
  for (const Node* node : graph.nodes()) {
    ops.push_back(node->op_type);
    CHECK(node->domain.empty());
    CHECK(node->provenance == std::vector<std::string>{node->name});
  }
  CHECK(ops == std::vector<std::string>{"Conv", "LeakyRelu", "MaxPool", "Constant", "Mul", "Reshape"});
  // W is declared as a graph input too, but it has an initializer: not a real input.
  CHECK(graph.inputs == std::vector<std::string>{"X"});
  CHECK(graph.outputs == std::vector<std::string>{"Y"});
  CHECK(graph.opset() == 13);

  const Node& conv = node_named(graph, "conv1");
  CHECK(conv.inputs == std::vector<std::string>{"X", "W", "B"});
  CHECK(conv.outputs == std::vector<std::string>{"c"});
  CHECK(conv.attributes.get_ints("kernel_shape") == std::vector<std::int64_t>{3, 3});
  CHECK(conv.attributes.get_ints("pads") == std::vector<std::int64_t>{1, 1, 1, 1});
  CHECK(conv.attributes.get_ints("strides") == std::vector<std::int64_t>{2, 2});
  CHECK(conv.attributes.get_int("group", -1) == 1);
  CHECK(conv.attributes.get_string("auto_pad", "") == "NOTSET");
  CHECK(node_named(graph, "LeakyRelu_1").attributes.get_float("alpha", 0) == 0.25f);

  const Tensor& scale = node_named(graph, "scale_const").attributes.require_tensor("value");
  CHECK(scale.dtype() == DType::Float32);
  CHECK(scale.shape().empty());
  CHECK(scale.to_doubles() == std::vector<double>{0.5});

  const Tensor& weights = graph.initializers.at("W");
  REQUIRE(weights.dtype() == DType::Float32);
  CHECK(weights.shape() == Shape{4, 3, 3, 3});
  const auto w = weights.contiguous().span<float>();
  REQUIRE(w.size() == 108);
  for (std::size_t i = 0; i < w.size(); ++i) CHECK(w[i] == static_cast<float>(0.01 * static_cast<double>(i) - 0.5));
  const Tensor& bias = graph.initializers.at("B");
  CHECK(bias.to_doubles() == std::vector<double>{0.1f, 0.2f, 0.3f, 0.4f});
  const Tensor& shape = graph.initializers.at("shape");
  CHECK(shape.dtype() == DType::Int64);
  CHECK(shape.to_int64s() == std::vector<std::int64_t>{0, -1});

  // The symbolic batch dimension survives; everything downstream is inferred from it.
  CHECK(type_of(graph, "X") == "float32[N,3,8,8]");
  CHECK(graph.value_info("X")->shape->at(0) == Dim::symbolic("N"));
  CHECK(type_of(graph, "W") == "float32[4,3,3,3]");
  CHECK(type_of(graph, "c") == "float32[N,4,4,4]");
  CHECK(type_of(graph, "r") == "float32[N,4,4,4]");
  CHECK(type_of(graph, "p") == "float32[N,4,2,2]");
  CHECK(type_of(graph, "s") == "float32[]");
  CHECK(type_of(graph, "Y") == "float32[N,16]");
  CHECK(type_of(graph, "shape") == "int64[2]");

  CHECK(graph.metadata.at("producer_name") == "asc-tests");
  CHECK(graph.metadata.at("producer_version") == "1.0");
  CHECK(graph.metadata.at("ir_version") == "8");
  CHECK(graph.metadata.at("model_path") == path.string());
  CHECK(graph.metadata.at("original_opset") == "13");
  CHECK(graph.metadata.at("metadata_props.author") == "h2");
}

TEST_CASE("input shape overrides fix graph input dims before shape inference") {
  const auto path = model_path("conv.onnx");

  SUBCASE("static batch") {
    const Graph graph = parse(path, {{{"X", {2, 3, 8, 8}}}});
    CHECK(type_of(graph, "X") == "float32[2,3,8,8]");
    CHECK(type_of(graph, "c") == "float32[2,4,4,4]");
    CHECK(type_of(graph, "Y") == "float32[2,16]");
  }
  SUBCASE("-1 keeps the model's symbol") {
    const Graph graph = parse(path, {{{"X", {-1, 3, 8, 8}}}});
    CHECK(type_of(graph, "X") == "float32[N,3,8,8]");
    CHECK(type_of(graph, "Y") == "float32[N,16]");
  }
  SUBCASE("unknown input name") {
    check_error(parse_error(path, {{{"Q", {1, 3, 8, 8}}}}), ErrorCode::InputShapeInvalid, path, {"'Q'", "'X'"});
  }
  SUBCASE("an initializer is not an input") {
    check_error(parse_error(path, {{{"W", {4, 3, 3, 3}}}}), ErrorCode::InputShapeInvalid, path, {"'W'"});
  }
  SUBCASE("rank differs") {
    check_error(parse_error(path, {{{"X", {1, 3}}}}), ErrorCode::InputShapeInvalid, path, {"'X'", "rank"});
  }
}

}  // namespace asc::test
