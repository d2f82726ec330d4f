// ElementwiseChainFusion: chains of same-shaped elementwise nodes into asc.ElementwiseChain.
#include <doctest/doctest.h>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

TEST_CASE("ElementwiseChainFusion fuses a chain into one node whose body holds the originals") {
  GraphBuilder b;
  const auto x = b.input("x", {3, 4});
  const auto y = b.input("y", {3, 4});
  const auto a = b.op("Add", {x, b.constant("c", random_tensor({4}, 1))}, {}, "add");
  const auto m = b.op("Mul", {a, y}, {}, "mul");
  const auto s = b.op("Sigmoid", {m}, {}, "sigmoid");
  const auto out = b.op("Mul", {s, s}, {}, "square");
  b.output(out);
  const Graph original = b.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "ElementwiseChainFusion").effect_times == 1);
  REQUIRE(graph.node_count() == 1);
  const Node* chain = only_node(graph, "ElementwiseChain", "asc");
  CHECK(chain->inputs == std::vector<std::string>{"x", "c", "y"});
  CHECK(chain->outputs[0] == out);
  CHECK(chain->provenance == std::vector<std::string>{"add", "mul", "sigmoid", "square"});
  const Graph& body = *chain->attributes.require_graph("body");
  CHECK(body.node_count() == 4);
  CHECK(body.inputs == chain->inputs);
  REQUIRE(body.outputs.size() == 1);
  CHECK(body.outputs[0] != out);  // body-local names never collide with the outer graph's
  check_same_outputs(original, graph);
}

TEST_CASE("ElementwiseChainFusion stops at intermediates read elsewhere and at shape changes") {
  GraphBuilder b;
  const auto x = b.input("x", {3, 1});
  const auto y = b.input("y", {3, 4});
  const auto r = b.op("Relu", {x}, {}, "relu");
  const auto a = b.op("Add", {r, y}, {}, "add");  // [3,1] -> [3,4]: a new chain starts here
  const auto n = b.op("Neg", {a}, {}, "neg");
  const auto e = b.op("Exp", {n}, {}, "exp");
  const auto t = b.op("Tanh", {e}, {}, "tanh");
  b.output(t);
  b.output(n);  // neg's result is also a graph output
  const Graph original = b.finish();
  Graph graph = original;
  // relu stays alone (add changes the shape); add+neg (neg is read by exp and is an output, so the
  // chain ends with it); exp+tanh.
  CHECK(run_pass(graph, "ElementwiseChainFusion").effect_times == 2);
  CHECK(graph.find_node("relu") != nullptr);
  check_same_outputs(original, graph);
}

}  // namespace
}  // namespace asc::fusion_test
