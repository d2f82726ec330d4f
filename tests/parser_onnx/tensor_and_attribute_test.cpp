// Initializers of every element type (raw_data and typed fields), every attribute kind,
// subgraphs with outer-scope references, and node naming.
#include <doctest/doctest.h>

#include <limits>
#include <set>

#include "parser_fixture.hpp"

namespace asc::test {
namespace {

template <class T> std::vector<T> values_of(const Tensor& tensor) {
  const auto span = tensor.contiguous().span<T>();
  return {span.begin(), span.end()};
}

template <class T> void check_pair(const Graph& graph, const std::string& type, DType dtype, std::vector<T> expected) {
  for (const std::string prefix : {"raw_", "typed_"}) {
    INFO("initializer " << prefix << type);
    const Tensor& tensor = graph.initializers.at(prefix + type);
    REQUIRE(tensor.dtype() == dtype);
    CHECK(tensor.shape() == Shape{static_cast<std::int64_t>(expected.size())});
    CHECK(values_of<T>(tensor) == expected);
  }
}

template <class Half> void check_half_pair(const Graph& graph, const std::string& type, DType dtype) {
  for (const std::string prefix : {"raw_", "typed_"}) {
    INFO("initializer " << prefix << type);
    const Tensor& tensor = graph.initializers.at(prefix + type);
    REQUIRE(tensor.dtype() == dtype);
    const auto values = values_of<Half>(tensor);
    REQUIRE(values.size() == 2);
    CHECK(static_cast<float>(values[0]) == 1.5f);
    CHECK(static_cast<float>(values[1]) == -2.25f);
  }
}

}  // namespace

TEST_CASE("initializers of every supported element type, from raw_data and typed fields") {
  const Graph graph = parse(model_path("dtypes.onnx"));
  check_pair<float>(graph, "float32", DType::Float32, {1.5f, -2.25f});
  check_pair<double>(graph, "float64", DType::Float64, {1.5, -2.25});
  check_half_pair<float16>(graph, "float16", DType::Float16);
  check_half_pair<bfloat16>(graph, "bfloat16", DType::BFloat16);
  check_pair<std::int8_t>(graph, "int8", DType::Int8, {-128, 127});
  check_pair<std::uint8_t>(graph, "uint8", DType::UInt8, {0, 255});
  check_pair<std::int16_t>(graph, "int16", DType::Int16, {-32768, 32767});
  check_pair<std::uint16_t>(graph, "uint16", DType::UInt16, {0, 65535});
  check_pair<std::int32_t>(graph, "int32", DType::Int32, {std::numeric_limits<std::int32_t>::min(), 2147483647});
  check_pair<std::uint32_t>(graph, "uint32", DType::UInt32, {0, 4294967295u});
  check_pair<std::int64_t>(graph, "int64", DType::Int64,
                           {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()});
  check_pair<std::uint64_t>(graph, "uint64", DType::UInt64, {0, std::numeric_limits<std::uint64_t>::max()});
  check_pair<bool>(graph, "bool", DType::Bool, {true, false});

  const Tensor& byte2 = graph.initializers.at("raw_bool_byte2");
  CHECK(values_of<bool>(byte2) == std::vector<bool>{true, false, true});
  CHECK(std::to_integer<int>(byte2.view().raw()[0]) == 1);  // stored as a proper bool

  const Tensor& empty = graph.initializers.at("empty");
  CHECK(empty.shape() == Shape{0, 3});
  CHECK(empty.numel() == 0);
  const Tensor& scalar = graph.initializers.at("scalar");
  CHECK(scalar.shape().empty());
  CHECK(scalar.to_doubles() == std::vector<double>{7.0});
  CHECK(type_of(graph, "raw_int8") == "int8[2]");  // initializers get value info too
}

TEST_CASE("a string initializer is refused naming the tensor") {
  const auto path = model_path("string_initializer.onnx");
  check_error(parse_error(path), ErrorCode::OperatorDtypeUnsupported, path, {"'words'", "STRING"});
}

TEST_CASE("attributes of every kind, and subgraphs reading outer-scope values") {
  const Graph graph = parse(model_path("attributes.onnx"));
  CHECK(graph.opset("test.custom") == 1);

  const Node& node = node_named(graph, "everything");
  CHECK(node.domain == "test.custom");
  const Attributes& a = node.attributes;
  CHECK(a.require_int("i") == 7);
  CHECK(a.require_float("f") == 0.5f);
  CHECK(a.require_string("s") == "hello");
  CHECK(a.require_tensor("t").dtype() == DType::Int32);
  CHECK(a.require_tensor("t").to_int64s() == std::vector<std::int64_t>{1, 2, 3});
  CHECK(a.require_ints("ints") == std::vector<std::int64_t>{1, 2, 3});
  CHECK(a.get_floats("floats") == std::vector<float>{0.25f, 0.5f});
  CHECK(a.get_strings("strings") == std::vector<std::string>{"a", "b"});
  const auto& tensors = std::get<std::vector<Tensor>>(a.all().at("tensors"));
  REQUIRE(tensors.size() == 2);
  CHECK(tensors[0].to_doubles() == std::vector<double>{1.0});
  CHECK(tensors[1].dtype() == DType::Int64);
  CHECK(tensors[1].to_int64s() == std::vector<std::int64_t>{4, 5});

  const auto main_names = node_names(graph);
  std::set<std::string> all_names(main_names.begin(), main_names.end());
  auto check_neg_graph = [&](const Graph& subgraph, const std::string& name) {
    CHECK(subgraph.name == name);
    CHECK(subgraph.inputs == std::vector<std::string>{"a"});
    CHECK(subgraph.outputs == std::vector<std::string>{"b"});
    REQUIRE(subgraph.node_count() == 1);
    const Node& neg = *subgraph.nodes()[0];
    CHECK(neg.op_type == "Neg");
    CHECK(neg.name.rfind("Neg_0", 0) == 0);
    CHECK(neg.provenance == std::vector<std::string>{neg.name});
    CHECK(all_names.insert(neg.name).second);  // unique across the whole model
  };
  check_neg_graph(*a.require_graph("g"), "g");
  const auto& graphs = std::get<std::vector<std::shared_ptr<Graph>>>(a.all().at("graphs"));
  REQUIRE(graphs.size() == 2);
  check_neg_graph(*graphs[0], "g0");
  check_neg_graph(*graphs[1], "g1");

  const Node& branch = node_named(graph, "if1");
  const Graph& then_branch = *branch.attributes.require_graph("then_branch");
  CHECK(then_branch.name == "then_body");
  CHECK(then_branch.inputs.empty());
  CHECK(then_branch.outputs == std::vector<std::string>{"then_out"});
  CHECK(then_branch.opset() == 13);
  CHECK(then_branch.initializers.at("one").to_doubles() == std::vector<double>{1.0, 1.0});
  REQUIRE(then_branch.node_count() == 1);
  CHECK(then_branch.nodes()[0]->op_type == "Add");
  CHECK(then_branch.nodes()[0]->inputs == std::vector<std::string>{"X", "one"});  // X from the outer graph
  CHECK(type_of(then_branch, "then_out") == "float32[2]");
  CHECK(branch.attributes.require_graph("else_branch")->nodes()[0]->op_type == "Sub");
  CHECK(type_of(graph, "Y") == "float32[2]");
}

TEST_CASE("a sparse tensor attribute is refused naming the node and attribute") {
  const auto path = model_path("sparse_attribute.onnx");
  check_error(parse_error(path), ErrorCode::InvalidOperator, path, {"'holder'", "'sparse'", "SPARSE_TENSOR"});
}

TEST_CASE("node names: generated for unnamed nodes, made unique where taken") {
  const Graph graph = parse(model_path("names.onnx"));
  CHECK(node_names(graph) == std::vector<std::string>{"Relu_1", "Relu_1_1", "dup", "dup_1"});
  for (const Node* node : graph.nodes()) CHECK(node->provenance == std::vector<std::string>{node->name});
}

}  // namespace asc::test
