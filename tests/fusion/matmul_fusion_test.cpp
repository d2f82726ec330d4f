// MatMul fusions: constant bias Add into asc.FusedMatMul, activations into FusedMatMul/FusedGemm.
#include <doctest/doctest.h>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

TEST_CASE("MatMulBiasAddFusion fuses a constant bias Add") {
  GraphBuilder b;
  const auto x = b.input("x", {2, 5, 8});
  const auto product = b.op("MatMul", {x, b.constant("W", random_tensor({8, 6}, 1))}, {}, "mm");
  b.output(b.op("Add", {b.constant("bias", random_tensor({6}, 2)), product}, {}, "add"));
  const Graph original = b.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "MatMulBiasAddFusion").effect_times == 1);
  const Node* fused = only_node(graph, "FusedMatMul", "asc");
  CHECK(fused->inputs == std::vector<std::string>{"x", "W", "bias"});
  CHECK(fused->provenance == std::vector<std::string>{"mm", "add"});
  check_same_outputs(original, graph);
}

TEST_CASE("MatMulBiasAddFusion leaves Adds that are not a bias") {
  GraphBuilder b;
  const auto x = b.input("x", {5, 8});
  const auto y = b.input("y", {5, 6});
  const auto p1 = b.op("MatMul", {x, b.constant("W", random_tensor({8, 6}, 1))});
  b.output(b.op("Add", {p1, y}));  // not a constant
  const auto p2 = b.op("MatMul", {x, b.constant("W2", random_tensor({8, 6}, 2))});
  b.output(b.op("Add", {p2, b.constant("wide", random_tensor({2, 5, 6}, 3))}));  // widens the product
  Graph graph = b.finish();
  const PassResult result = run_pass(graph, "MatMulBiasAddFusion");
  CHECK(result.match_times == 1);
  CHECK(result.effect_times == 0);
}

TEST_CASE("MatMulActivationFusion fuses activations after MatMul, FusedMatMul and Gemm") {
  GraphBuilder b;
  const auto x = b.input("x", {4, 8});
  const auto m = b.op("MatMul", {x, b.constant("W", random_tensor({8, 6}, 1))});
  b.output(b.op("Relu", {m}));
  const auto with_bias = b.op("Add", {b.op("MatMul", {x, b.constant("W2", random_tensor({8, 6}, 2))}),
                                      b.constant("bias", random_tensor({6}, 3))});
  b.output(b.op("Tanh", {with_bias}));
  const auto gemm = b.op("Gemm", {x, b.constant("W3", random_tensor({6, 8}, 4)), b.constant("C", random_tensor({6}, 5))},
                         attrs({{"transB", std::int64_t{1}}, {"alpha", 0.5f}}), "gemm");
  b.output(b.op("Sigmoid", {gemm}));
  const Graph original = b.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "MatMulBiasAddFusion").effect_times == 1);
  CHECK(run_pass(graph, "MatMulActivationFusion").effect_times == 3);
  CHECK(count_ops(graph, "FusedMatMul", "asc") == 2);
  const Node* fused_gemm = only_node(graph, "FusedGemm", "asc");
  CHECK(fused_gemm->attributes.get_int("transB", 0) == 1);
  CHECK(fused_gemm->attributes.get_string("activation", "") == "Sigmoid");
  CHECK(graph.node_count() == 3);
  check_same_outputs(original, graph);
}

TEST_CASE("MatMulActivationFusion takes a scaling by a constant: the attention scores' division by sqrt(d)") {
  GraphBuilder b;
  const auto q = b.input("q", {2, 3, 5, 8});
  const auto kt = b.input("kt", {2, 3, 8, 5});
  const auto scores = b.op("MatMul", {q, kt}, {}, "scores");
  b.output(b.op("Softmax", {b.op("Div", {scores, b.constant("sqrt_d", Tensor::scalar<float>(2.828427f))}, {}, "scale")},
                attrs({{"axis", std::int64_t{-1}}})));
  // Mul with the constant first; a rank-1 one-element factor keeps the product's shape.
  const auto product = b.op("MatMul", {q, b.constant("W", random_tensor({8, 4}, 1))}, {}, "proj");
  b.output(b.op("Mul", {b.constant("half", random_tensor({1}, 2)), product}, {}, "times"));
  const Graph original = b.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "MatMulActivationFusion").effect_times == 2);
  CHECK(count_ops(graph, "Div") == 0);
  CHECK(count_ops(graph, "Mul") == 0);
  CHECK(count_ops(graph, "FusedMatMul", "asc") == 2);
  for (const Node* node : graph.nodes()) {
    if (node->op_type != "FusedMatMul") continue;
    const std::string kind = node->attributes.get_string("activation", "");
    CHECK((kind == "Div" || kind == "Mul"));
    if (kind == "Div") CHECK(node->attributes.get_floats("activation_params") == std::vector<float>{2.828427f});
  }
  check_same_outputs(original, graph);
}

TEST_CASE("MatMulActivationFusion leaves scalings that are not by a one-element constant, or widen the product") {
  GraphBuilder b;
  const auto x = b.input("x", {4, 8});
  const auto y = b.input("y", {4, 6});
  b.output(b.op("Div", {b.op("MatMul", {x, b.constant("W", random_tensor({8, 6}, 1))}), y}));  // not a constant
  b.output(b.op("Mul", {b.op("MatMul", {x, b.constant("W2", random_tensor({8, 6}, 2))}),
                        b.constant("wide", random_tensor({1, 1, 1}, 3))}));  // rank 3: widens the product
  b.output(b.op("Div", {b.constant("c", random_tensor({1}, 4)), b.op("MatMul", {x, b.constant("W3", random_tensor({8, 6}, 5))})}));  // c / x
  Graph graph = b.finish();
  CHECK(run_pass(graph, "MatMulActivationFusion").effect_times == 0);
}

}  // namespace
}  // namespace asc::fusion_test
