// AttentionFusion on a small multi-head attention block, with static reshape targets and with
// targets computed from Shape() (dynamic batch and sequence), and the asc.Attention kernel
// against the unfused graph.
#include <doctest/doctest.h>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

constexpr std::int64_t kHeads = 2, kHeadSize = 4, kWidth = kHeads * kHeadSize;

Tensor int64s(std::vector<std::int64_t> values) {
  return Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(values.size())}, values);
}

struct AttentionBlock {
  GraphBuilder b{13};
  std::string x;
  bool dynamic = false;
  int counter = 0;

  // Reshape target [batch, seq, rest...]: constants, or pieces of Shape(x) when dynamic.
  std::string target(std::vector<std::int64_t> static_dims, std::vector<std::int64_t> rest) {
    const std::string id = std::to_string(counter++);
    if (!dynamic) return b.constant("shape" + id, int64s(static_dims));
    const auto shape = b.op("Shape", {x});
    std::vector<std::string> pieces;
    for (std::int64_t axis : {0, 1}) {
      const auto dim = b.op("Gather", {shape, b.constant("axis" + id + "_" + std::to_string(axis), Tensor::scalar<std::int64_t>(axis))},
                            attrs({{"axis", std::int64_t{0}}}));
      pieces.push_back(b.op("Unsqueeze", {dim, b.constant("zero" + id + "_" + std::to_string(axis), int64s({0}))}));
    }
    pieces.push_back(b.constant("rest" + id, int64s(rest)));
    return b.op("Concat", pieces, attrs({{"axis", std::int64_t{0}}}));
  }

  std::string heads(const std::string& name, std::vector<std::int64_t> perm, unsigned seed, bool split_transpose = false) {
    const auto projected = b.op("Add", {b.op("MatMul", {x, b.constant("W" + name, random_tensor({kWidth, kWidth}, seed))}),
                                        b.constant("b" + name, random_tensor({kWidth}, seed + 100))});
    const auto split = b.op("Reshape", {projected, target({2, 5, kHeads, kHeadSize}, {kHeads, kHeadSize})});
    if (!split_transpose) return b.op("Transpose", {split}, attrs({{"perm", perm}}));
    const auto first = b.op("Transpose", {split}, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}}));
    return b.op("Transpose", {first}, attrs({{"perm", std::vector<std::int64_t>{0, 1, 3, 2}}}));
  }

  Graph build(bool with_mask) {
    x = dynamic ? b.input("x", {Dim::symbolic("batch"), Dim::symbolic("seq"), kWidth}) : b.input("x", {2, 5, kWidth});
    const auto q = heads("q", {0, 2, 1, 3}, 1);
    const auto k = heads("k", {0, 2, 3, 1}, 2, dynamic);
    const auto v = heads("v", {0, 2, 1, 3}, 3);
    auto scores = b.op("Div", {b.op("MatMul", {q, k}), b.constant("scale", Tensor::scalar<float>(2.0f))});
    if (with_mask) scores = b.op("Add", {scores, b.input("mask", {2, 1, 1, 5})});
    const auto weights = b.op("Softmax", {scores}, attrs({{"axis", std::int64_t{-1}}}), "softmax");
    const auto context = b.op("Transpose", {b.op("MatMul", {weights, v})}, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}}));
    b.output(b.op("Reshape", {context, target({2, 5, kWidth}, {kWidth})}, {}, "merged"));
    return b.finish();
  }
};

TEST_CASE("AttentionFusion fuses a multi-head attention block with a mask") {
  for (const bool with_mask : {false, true}) {
    CAPTURE(with_mask);
    const Graph original = AttentionBlock().build(with_mask);
    Graph graph = original;
    CHECK(run_pass(graph, "AttentionFusion").effect_times == 1);
    run_pass(graph, "DeadNodeElimination");
    REQUIRE(graph.node_count() == 1);
    const Node* attention = only_node(graph, "Attention", "asc");
    CHECK(attention->attributes.get_int("num_heads", 0) == kHeads);
    CHECK(attention->attributes.get_float("scale", 0) == doctest::Approx(0.5));
    CHECK(attention->inputs.size() == (with_mask ? 10u : 9u));
    CHECK(attention->provenance.size() == (with_mask ? 19u : 18u));
    check_same_outputs(original, graph, 1e-5);
  }
}

TEST_CASE("AttentionFusion reads reshape targets computed from Shape() with a dynamic batch") {
  AttentionBlock block;
  block.dynamic = true;
  const Graph original = block.build(false);
  Graph graph = original;
  CHECK(run_pass(graph, "AttentionFusion").effect_times == 1);
  run_pass(graph, "DeadNodeElimination");
  CHECK(graph.node_count() == 1);
  const TensorMap inputs{{"x", random_tensor({2, 5, kWidth}, 4)}};
  const Tensor expected = run_reference(original, inputs).at(original.outputs[0]);
  const Tensor actual = run_reference(graph, inputs).at(original.outputs[0]);
  REQUIRE(actual.shape() == Shape{2, 5, kWidth});
  const auto a = expected.to_doubles();
  const auto c = actual.to_doubles();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(c[i] == doctest::Approx(a[i]).epsilon(1e-5));
}

TEST_CASE("AttentionFusion leaves the block when an intermediate is read elsewhere") {
  AttentionBlock block;
  Graph graph = block.build(false);
  graph.outputs.push_back("softmax_out0");
  CHECK(run_pass(graph, "AttentionFusion").effect_times == 0);
}

}  // namespace
}  // namespace asc::fusion_test
