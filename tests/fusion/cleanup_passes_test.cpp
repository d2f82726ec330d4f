// The clean-up passes on small graphs: what each removes or rewrites, and that the reference
// result stays the same.
#include <doctest/doctest.h>

#include <algorithm>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

Tensor int64s(Shape shape, std::vector<std::int64_t> values) { return Tensor::from_vector<std::int64_t>(std::move(shape), values); }

bool has_origin(const Node& node, const std::string& origin) {
  return std::find(node.provenance.begin(), node.provenance.end(), origin) != node.provenance.end();
}

TEST_CASE("IdentityElimination removes Identity and inference Dropout, keeping output names and provenance") {
  GraphBuilder b;
  const auto x = b.input("x", {2, 3});
  const auto i1 = b.op("Identity", {x}, {}, "id_in");
  const auto d = b.op("Dropout", {i1}, {}, "drop");
  const auto r = b.op("Relu", {d}, {}, "relu");
  const auto i2 = b.op("Identity", {r}, {}, "id_out");
  b.output(i2);
  const Graph original = b.finish();
  Graph graph = original;
  const PassResult result = run_pass(graph, "IdentityElimination");
  CHECK(result.match_times == 3);
  CHECK(result.effect_times == 3);
  REQUIRE(graph.node_count() == 1);
  const Node* relu = only_node(graph, "Relu");
  CHECK(relu->inputs[0] == "x");
  CHECK(relu->outputs[0] == i2);  // the graph output keeps its name
  CHECK(has_origin(*relu, "id_out"));
  check_same_outputs(original, graph);
}

TEST_CASE("ConstantFolding collapses a Shape/Gather/Unsqueeze/Concat reshape target when the shape is static") {
  GraphBuilder b;
  const auto x = b.input("x", {2, 3, 4});
  const auto shape = b.op("Shape", {x});
  const auto dim = b.op("Gather", {shape, b.constant("one", Tensor::scalar<std::int64_t>(1))}, attrs({{"axis", std::int64_t{0}}}));
  const auto piece = b.op("Unsqueeze", {dim, b.constant("axes0", int64s({1}, {0}))});
  const auto target = b.op("Concat", {piece, b.constant("rest", int64s({1}, {-1}))}, attrs({{"axis", std::int64_t{0}}}), "target");
  const auto y = b.op("Reshape", {x, target});
  b.output(y);
  const Graph original = b.finish();
  Graph graph = original;
  const PassResult result = run_pass(graph, "ConstantFolding");
  CHECK(result.effect_times == 4);
  REQUIRE(graph.node_count() == 1);
  CHECK(graph.initializers.at(target).to_int64s() == std::vector<std::int64_t>{3, -1});  // x's dim 1, then -1
  check_same_outputs(original, graph);
}

TEST_CASE("ConstantFolding turns Constant nodes into initializers and re-infers types downstream") {
  GraphBuilder b;
  const auto x = b.input("x", {2, 6});
  const auto c = b.op("Constant", {}, attrs({{"value", Tensor::from_vector<std::int64_t>({3}, {3, 2, 2})}}), "const");
  const auto y = b.op("Reshape", {x, c});
  const auto z = b.op("Relu", {y});
  b.output(z);
  Graph graph = b.finish();
  graph.values.erase(y);  // as the parser leaves it when the target is computed
  graph.values.erase(z);
  const Graph original = graph;
  CHECK(run_pass(graph, "ConstantFolding").effect_times == 1);
  CHECK(count_ops(graph, "Constant") == 0);
  CHECK(graph.initializers.at(c).to_int64s() == std::vector<std::int64_t>{3, 2, 2});
  REQUIRE(graph.value_info(z) != nullptr);
  CHECK(graph.value_info(z)->static_shape() == Shape{3, 2, 2});
  check_same_outputs(original, graph);
}

TEST_CASE("ConstantFolding leaves large results, graph outputs and random generators alone") {
  GraphBuilder b;
  const auto x = b.input("x", {2});
  // 5·1024·1024 float32 = 20 MiB > 16 MiB
  const auto big = b.op("ConstantOfShape", {b.constant("dims", int64s({3}, {5, 1024, 1024}))}, {}, "big");
  const auto sum = b.op("ReduceSum", {big}, attrs({{"keepdims", std::int64_t{0}}}), "sum");
  const auto y = b.op("Add", {x, sum});
  const auto constant_output = b.op("Neg", {b.constant("k", Tensor::from_vector<float>({2}, {1, 2}))}, {}, "neg");
  b.output(y);
  b.output(constant_output);
  Graph graph = b.finish();
  graph.add_node(Node{"random", "RandomUniform", "", attrs({{"shape", std::vector<std::int64_t>{2}}}), {}, {"r"}, {"random"}});
  const PassResult result = run_pass(graph, "ConstantFolding");
  CHECK(result.match_times == 1);  // only the ConstantOfShape qualifies, and it is too large
  CHECK(result.effect_times == 0);
  CHECK(graph.find_node("big") != nullptr);
  CHECK(graph.find_node("neg") != nullptr);
  CHECK(graph.find_node("random") != nullptr);
}

TEST_CASE("CommonSubexpressionElimination merges equal nodes only") {
  GraphBuilder b;
  const auto x = b.input("x", {4});
  const auto a = b.op("LeakyRelu", {x}, attrs({{"alpha", 0.1f}}), "a");
  const auto a2 = b.op("LeakyRelu", {x}, attrs({{"alpha", 0.1f}}), "a2");
  const auto other = b.op("LeakyRelu", {x}, attrs({{"alpha", 0.2f}}), "other");
  const auto s1 = b.op("Add", {a, a2}, {}, "s1");
  const auto s2 = b.op("Add", {a2, a}, {}, "s2");  // equals s1 once a2 is merged into a
  const auto y = b.op("Sum", {s1, s2, other});
  b.output(y);
  const Graph original = b.finish();
  Graph graph = original;
  const PassResult result = run_pass(graph, "CommonSubexpressionElimination");
  CHECK(result.effect_times == 2);  // a2 into a, then s2 (now Add(a, a)) into s1
  CHECK(count_ops(graph, "LeakyRelu") == 2);
  CHECK(count_ops(graph, "Add") == 1);
  CHECK(has_origin(*graph.find_node("a"), "a2"));
  check_same_outputs(original, graph);
}

TEST_CASE("ShapeInference reads a computed reshape target symbolically") {
  GraphBuilder b;
  const auto x = b.input("x", {Dim::symbolic("batch"), 6});
  const auto shape = b.op("Shape", {x});
  const auto batch = b.op("Gather", {shape, b.constant("zero", Tensor::scalar<std::int64_t>(0))}, attrs({{"axis", std::int64_t{0}}}));
  const auto piece = b.op("Unsqueeze", {batch, b.constant("axes0", int64s({1}, {0}))});
  const auto target = b.op("Concat", {piece, b.constant("rest", int64s({2}, {2, 3}))}, attrs({{"axis", std::int64_t{0}}}));
  const auto y = b.op("Reshape", {x, target});
  b.output(y);
  Graph graph = b.finish();
  graph.values.erase(y);
  CHECK(run_pass(graph, "ShapeInference").effect_times >= 1);
  REQUIRE(graph.value_info(y) != nullptr);
  REQUIRE(graph.value_info(y)->shape);
  CHECK(*graph.value_info(y)->shape == std::vector<Dim>{Dim::symbolic("batch"), 2, 3});
}

TEST_CASE("ReshapeChainFolding folds a chain into one Reshape and removes a chain that changes nothing") {
  GraphBuilder b;
  const auto x = b.input("x", {2, 3, 4});
  const auto flat = b.op("Flatten", {x}, attrs({{"axis", std::int64_t{1}}}));
  const auto wide = b.op("Unsqueeze", {flat, b.constant("axes1", int64s({1}, {1}))});
  const auto y = b.op("Reshape", {wide, b.constant("to46", int64s({2}, {4, 6}))}, {}, "last");
  const auto out = b.op("Relu", {y});
  const auto z = b.input("z", {2, 1, 3});
  const auto squeezed = b.op("Squeeze", {z, b.constant("axes", int64s({1}, {1}))}, {}, "squeeze");
  const auto back = b.op("Unsqueeze", {squeezed, b.constant("axes_again", int64s({1}, {1}))}, {}, "unsqueeze");
  const auto out2 = b.op("Neg", {back}, {}, "neg");
  b.output(out);
  b.output(out2);
  const Graph original = b.finish();
  Graph graph = original;
  const PassResult result = run_pass(graph, "ReshapeChainFolding");
  CHECK(result.match_times == 2);
  CHECK(result.effect_times == 2);
  const Node* reshape = only_node(graph, "Reshape");
  CHECK(graph.initializers.at(reshape->inputs[1]).to_int64s() == std::vector<std::int64_t>{4, 6});
  CHECK(count_ops(graph, "Flatten") + count_ops(graph, "Unsqueeze") + count_ops(graph, "Squeeze") == 0);
  CHECK(graph.find_node("neg")->inputs[0] == "z");
  check_same_outputs(original, graph);
}

TEST_CASE("ReshapeChainFolding keeps an intermediate that something else reads") {
  GraphBuilder b;
  const auto x = b.input("x", {2, 3, 4});
  const auto flat = b.op("Flatten", {x}, attrs({{"axis", std::int64_t{1}}}));
  const auto y = b.op("Reshape", {flat, b.constant("to46", int64s({2}, {4, 6}))});
  const auto side = b.op("Relu", {flat});
  b.output(y);
  b.output(side);
  Graph graph = b.finish();
  CHECK(run_pass(graph, "ReshapeChainFolding").effect_times == 0);
  CHECK(count_ops(graph, "Flatten") == 1);
}

TEST_CASE("TransposeOptimization composes permutations and cancels inverse pairs") {
  GraphBuilder b;
  const auto x = b.input("x", {2, 3, 4});
  const auto t1 = b.op("Transpose", {x}, attrs({{"perm", std::vector<std::int64_t>{1, 0, 2}}}));
  const auto t2 = b.op("Transpose", {t1}, attrs({{"perm", std::vector<std::int64_t>{2, 0, 1}}}));
  const auto y = b.op("Relu", {t2});
  const auto u1 = b.op("Transpose", {x}, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1}}}));
  const auto u2 = b.op("Transpose", {u1}, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1}}}));
  const auto z = b.op("Neg", {u2}, {}, "neg");
  b.output(y);
  b.output(z);
  const Graph original = b.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "TransposeOptimization").effect_times == 2);
  const Node* transpose = only_node(graph, "Transpose");
  // x [2,3,4] -> [3,2,4] -> [4,3,2]: output axis i is input axis 2, 1, 0.
  CHECK(transpose->attributes.get_ints("perm") == std::vector<std::int64_t>{2, 1, 0});
  CHECK(graph.find_node("neg")->inputs[0] == "x");
  check_same_outputs(original, graph);
}

TEST_CASE("TransposeOptimization turns a permutation of size-1 axes into a Reshape") {
  GraphBuilder b;
  const auto x = b.input("x", {1, 3, 4});
  // [1,3,4] -> [3,1,4]: only the unit axis moves (ViT's sequence-first MultiheadAttention).
  const auto moved = b.op("Transpose", {x}, attrs({{"perm", std::vector<std::int64_t>{1, 0, 2}}}), "unit");
  const auto y = b.op("Relu", {moved});
  // A chain whose composition, [1,3,4] -> [3,4,1], also keeps 3 before 4.
  const auto c1 = b.op("Transpose", {x}, attrs({{"perm", std::vector<std::int64_t>{2, 0, 1}}}));
  const auto c2 = b.op("Transpose", {c1}, attrs({{"perm", std::vector<std::int64_t>{2, 0, 1}}}));
  const auto z = b.op("Neg", {c2});
  // [1,3,4] -> [1,4,3] swaps two axes longer than 1: a real transpose, kept.
  const auto swapped = b.op("Transpose", {x}, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1}}}), "swap");
  const auto w = b.op("Sigmoid", {swapped});
  b.output(y);
  b.output(z);
  b.output(w);
  const Graph original = b.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "TransposeOptimization").effect_times == 2);
  CHECK(count_ops(graph, "Reshape") == 2);
  CHECK(only_node(graph, "Transpose")->name == "swap");
  const Node* reshape = graph.find_node("unit");
  REQUIRE(reshape != nullptr);
  CHECK(reshape->op_type == "Reshape");
  CHECK(graph.initializers.at(reshape->inputs[1]).to_int64s() == std::vector<std::int64_t>{3, 1, 4});
  check_same_outputs(original, graph);
}

TEST_CASE("DeadNodeElimination removes unread nodes and initializers") {
  GraphBuilder b;
  const auto x = b.input("x", {3});
  const auto y = b.op("Relu", {x});
  b.op("Add", {x, b.constant("unused_weight", Tensor::from_vector<float>({3}, {1, 2, 3}))}, {}, "dead");
  b.output(y);
  Graph graph = b.finish();
  CHECK(run_pass(graph, "DeadNodeElimination").effect_times == 1);
  CHECK(graph.find_node("dead") == nullptr);
  CHECK(graph.initializers.count("unused_weight") == 0);
}

}  // namespace
}  // namespace asc::fusion_test
