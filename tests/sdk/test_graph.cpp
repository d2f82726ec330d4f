#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "asc/sdk/error.hpp"
#include "asc/sdk/graph.hpp"

namespace {

asc::Node make_node(std::string name, std::string op, std::vector<std::string> inputs,
                    std::vector<std::string> outputs) {
  asc::Node node;
  node.provenance = {name};
  node.name = std::move(name);
  node.op_type = std::move(op);
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  return node;
}

// A node a pass creates: its provenance comes from the nodes it replaces.
asc::Node fused_node(std::string name, std::string op, std::vector<std::string> inputs,
                     std::vector<std::string> outputs) {
  asc::Node node = make_node(std::move(name), std::move(op), std::move(inputs), std::move(outputs));
  node.provenance.clear();
  return node;
}

std::vector<std::string> node_names(const asc::Graph& graph) {
  std::vector<std::string> names;
  for (const asc::Node* node : graph.nodes()) names.push_back(node->name);
  return names;
}

// x -> A -> a -> B -> b -> D -> y
//            \-> C -> c --/
asc::Graph diamond() {
  asc::Graph graph;
  graph.name = "diamond";
  graph.inputs = {"x"};
  graph.outputs = {"y"};
  graph.add_node(make_node("A", "Relu", {"x"}, {"a"}));
  graph.add_node(make_node("B", "Sigmoid", {"a"}, {"b"}));
  graph.add_node(make_node("C", "Tanh", {"a"}, {"c"}));
  graph.add_node(make_node("D", "Add", {"b", "c"}, {"y"}));
  return graph;
}

}  // namespace

TEST_CASE("Node::describe names the node and its op") {
  CHECK(make_node("conv1", "Conv", {}, {}).describe() == "node 'conv1' (Conv)");
}

TEST_CASE("ValueInfo prints dtype and dims, symbols included") {
  asc::ValueInfo info;
  info.name = "input";
  info.dtype = asc::DType::Float32;
  info.shape = std::vector<asc::Dim>{asc::Dim::symbolic("batch"), 3, 224, 224};
  CHECK(asc::to_string(info) == "float32[batch,3,224,224]");
  CHECK_FALSE(info.has_static_shape());
  CHECK_THROWS_AS(info.static_shape(), asc::Error);
  const auto fixed = asc::ValueInfo::from_shape("w", asc::DType::Float16, {64, 3});
  CHECK(fixed.has_static_shape());
  CHECK(fixed.static_shape() == asc::Shape{64, 3});
}

TEST_CASE("replace_nodes keeps provenance and restores topological order") {
  asc::Graph graph = diamond();

  // B sits before C, but the fused node reads c: it has to move after C.
  std::vector<asc::Node*> bd{graph.find_node("B"), graph.find_node("D")};
  asc::Node& fused = graph.replace_nodes(bd, fused_node("BD", "SigmoidAdd", {"a", "c"}, {"y"}));
  CHECK(node_names(graph) == std::vector<std::string>{"A", "C", "BD"});
  CHECK(fused.provenance == std::vector<std::string>{"B", "D"});
  CHECK(graph.find_node("B") == nullptr);
  CHECK(graph.find_node("D") == nullptr);

  // Overlapping provenance lists: union in topological order, no duplicates, then the
  // replacement's own extra entries.
  graph.find_node("A")->provenance = {"a0", "shared"};
  graph.find_node("C")->provenance = {"shared", "c0"};
  asc::Node replacement = fused_node("AC", "ReluTanh", {"x"}, {"a", "c"});
  replacement.provenance = {"c0", "extra"};
  std::vector<asc::Node*> ac{graph.find_node("C"), graph.find_node("A")};  // order of the span is irrelevant
  asc::Node& merged = graph.replace_nodes(ac, replacement);
  CHECK(node_names(graph) == std::vector<std::string>{"AC", "BD"});
  CHECK(merged.provenance == std::vector<std::string>{"a0", "shared", "c0", "extra"});
  CHECK(graph.producer("c") == &merged);
  CHECK(graph.consumers("a") == std::vector<asc::Node*>{graph.find_node("BD")});
}

TEST_CASE("replace_nodes accepts a view of nodes() itself") {
  asc::Graph graph = diamond();
  asc::Node& all = graph.replace_nodes(graph.nodes(), fused_node("ALL", "Fused", {"x"}, {"y"}));
  CHECK(graph.node_count() == 1);
  CHECK(all.provenance == std::vector<std::string>{"A", "B", "C", "D"});
}

TEST_CASE("sort_topologically is stable") {
  asc::Graph graph;
  graph.outputs = {"y", "p", "q"};
  graph.add_node(make_node("P", "Relu", {"x"}, {"p"}));
  graph.add_node(make_node("Consumer", "Neg", {"m"}, {"y"}));  // reads m before it is produced
  graph.add_node(make_node("Q", "Relu", {"x"}, {"q"}));
  graph.add_node(make_node("Producer", "Abs", {"x"}, {"m"}));
  graph.sort_topologically();
  // Only Consumer moves, and only as far as it has to.
  CHECK(node_names(graph) == std::vector<std::string>{"P", "Q", "Producer", "Consumer"});
  graph.sort_topologically();
  CHECK(node_names(graph) == std::vector<std::string>{"P", "Q", "Producer", "Consumer"});
}

TEST_CASE("a cycle is an EE1005 error naming a node on it") {
  asc::Graph graph;
  graph.name = "loop";
  graph.outputs = {"d"};
  graph.add_node(make_node("Downstream", "Relu", {"b"}, {"d"}));  // depends on the cycle, not on it
  graph.add_node(make_node("First", "Add", {"x", "b"}, {"a"}));
  graph.add_node(make_node("Second", "Neg", {"a"}, {"b"}));
  try {
    graph.sort_topologically();
    FAIL("expected a cycle error");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::ShapeInferenceFailed);
    const std::string message = error.message();
    CAPTURE(message);
    CHECK((message.find("node 'First' (Add)") != std::string::npos ||
           message.find("node 'Second' (Neg)") != std::string::npos));
    CHECK(message.find("Downstream") == std::string::npos);
  }
}

TEST_CASE("remove_dead_nodes drops unreachable nodes and unread initializers") {
  asc::Graph graph;
  graph.inputs = {"x", "optional_bias"};
  graph.outputs = {"y"};
  graph.initializers["w"] = asc::Tensor(asc::DType::Float32, {2});
  graph.initializers["unused"] = asc::Tensor(asc::DType::Float32, {2});
  graph.initializers["dead_weight"] = asc::Tensor(asc::DType::Float32, {2});
  graph.initializers["optional_bias"] = asc::Tensor(asc::DType::Float32, {2});  // also a graph input
  graph.values["dead_out"] = asc::ValueInfo::from_shape("dead_out", asc::DType::Float32, {2});
  graph.add_node(make_node("Mul", "Mul", {"x", "w"}, {"m"}));
  graph.add_node(make_node("Dead", "Add", {"x", "dead_weight"}, {"dead_out"}));
  graph.add_node(make_node("DeadToo", "Relu", {"dead_out"}, {"dead_relu"}));
  graph.add_node(make_node("Out", "Relu", {"m"}, {"y"}));

  CHECK(graph.remove_dead_nodes() == 2);
  CHECK(node_names(graph) == std::vector<std::string>{"Mul", "Out"});
  CHECK(graph.is_initializer("w"));
  CHECK(graph.is_initializer("optional_bias"));
  CHECK_FALSE(graph.is_initializer("unused"));
  CHECK_FALSE(graph.is_initializer("dead_weight"));
  CHECK(graph.value_info("dead_out") == nullptr);
  CHECK(graph.remove_dead_nodes() == 0);
}

TEST_CASE("the copy constructor deep-copies nodes") {
  const asc::Graph original = diamond();
  asc::Graph copy = original;
  REQUIRE(copy.node_count() == 4);
  CHECK(copy.nodes()[0] != original.nodes()[0]);
  copy.find_node("A")->op_type = "Elu";
  copy.remove_node(copy.find_node("D"));
  CHECK(original.find_node("A")->op_type == "Relu");
  CHECK(original.node_count() == 4);
  asc::Graph assigned;
  assigned = original;
  CHECK(node_names(assigned) == node_names(original));
}

TEST_CASE("lookups and renames") {
  asc::Graph graph = diamond();
  CHECK(graph.producer("a") == graph.find_node("A"));
  CHECK(graph.producer("x") == nullptr);
  CHECK(graph.consumers("a").size() == 2);
  CHECK(graph.is_graph_output("y"));
  graph.replace_all_uses("y", "y2");
  CHECK(graph.outputs == std::vector<std::string>{"y2"});
  graph.replace_all_uses("a", "x");
  CHECK(graph.find_node("B")->inputs == std::vector<std::string>{"x"});

  CHECK(graph.unique_value_name("fresh") == "fresh");
  CHECK(graph.unique_value_name("b") == "b_1");
  graph.values["b_1"] = {};
  CHECK(graph.unique_value_name("b") == "b_2");
  CHECK(graph.unique_node_name("A") == "A_1");
  CHECK(graph.unique_node_name("E") == "E");
}

TEST_CASE("opset lookup accepts both spellings of the default domain") {
  asc::Graph graph;
  graph.opset_imports["ai.onnx"] = 13;
  graph.opset_imports["com.microsoft"] = 1;
  CHECK(graph.opset() == 13);
  CHECK(graph.opset("com.microsoft") == 1);
  CHECK(graph.opset("com.other") == 0);
}
