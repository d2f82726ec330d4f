// AttentionFusion on a small multi-head attention block, with static reshape targets and with
// targets computed from Shape() (dynamic batch and sequence), with the softmax scale applied
// where different exporters put it, and the asc.Attention kernel against the unfused graph.
#include <doctest/doctest.h>

#include <cmath>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

constexpr std::int64_t kHeads = 2, kHeadSize = 4, kWidth = kHeads * kHeadSize;

Tensor int64_vector(std::vector<std::int64_t> values) {
  return Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(values.size())}, values);
}

// Where the block applies its softmax scale 1/sqrt(head size) = 0.5.
enum class Scaling {
  Scores,            // Div(Q·Kᵀ, 2): the BERT export (tools/small_models.py)
  QueryHeads,        // Mul(Q, 0.5) after the head split, then Q·Kᵀ
  QueryProjection,   // Mul(Xq·Wq + Bq, 0.5) before the head split (BART-style q_proj(x) * scaling)
  QueryAndKeyHeads,  // Mul(Q, sqrt 0.5) and Mul(Kᵀ, sqrt 0.5): torch's scaled_dot_product_attention export
};

struct AttentionBlock {
  GraphBuilder b{13};
  std::string x;
  bool dynamic = false;
  Scaling scaling = Scaling::Scores;
  bool scale_value = false;  // Mul(V, 0.5) after its head split as well
  int counter = 0;

  std::string scaled(const std::string& value, float factor) {
    return b.op("Mul",
                {value, b.constant("factor" + std::to_string(counter++), Tensor::scalar<float>(factor))});
  }

  // Reshape target [batch, seq, rest...]: constants, or pieces of Shape(x) when dynamic.
  std::string target(std::vector<std::int64_t> static_dims, std::vector<std::int64_t> rest) {
    const std::string id = std::to_string(counter++);
    if (!dynamic) return b.constant("shape" + id, int64_vector(static_dims));
    const auto shape = b.op("Shape", {x});
    std::vector<std::string> pieces;
    for (std::int64_t axis : {0, 1}) {
      const auto dim = b.op(
          "Gather",
          {shape, b.constant("axis" + id + "_" + std::to_string(axis), Tensor::scalar<std::int64_t>(axis))},
          attrs({{"axis", std::int64_t{0}}}));
      pieces.push_back(
          b.op("Unsqueeze", {dim, b.constant("zero" + id + "_" + std::to_string(axis), int64_vector({0}))}));
    }
    pieces.push_back(b.constant("rest" + id, int64_vector(rest)));
    return b.op("Concat", pieces, attrs({{"axis", std::int64_t{0}}}));
  }

  // Q, K or V split into heads; `before_split` / `after_split` multiply by that factor there.
  std::string heads(const std::string& name, std::vector<std::int64_t> perm, unsigned seed,
                    bool split_transpose = false, float before_split = 1.0f, float after_split = 1.0f) {
    auto projected =
        b.op("Add", {b.op("MatMul", {x, b.constant("W" + name, random_tensor({kWidth, kWidth}, seed))}),
                     b.constant("b" + name, random_tensor({kWidth}, seed + 100))});
    if (before_split != 1.0f) projected = scaled(projected, before_split);
    const auto split = b.op("Reshape", {projected, target({2, 5, kHeads, kHeadSize}, {kHeads, kHeadSize})});
    std::string result;
    if (!split_transpose) {
      result = b.op("Transpose", {split}, attrs({{"perm", perm}}));
    } else {
      const auto first = b.op("Transpose", {split}, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}}));
      result = b.op("Transpose", {first}, attrs({{"perm", std::vector<std::int64_t>{0, 1, 3, 2}}}));
    }
    return after_split != 1.0f ? scaled(result, after_split) : result;
  }

  Graph build(bool with_mask) {
    x = dynamic ? b.input("x", {Dim::symbolic("batch"), Dim::symbolic("seq"), kWidth})
                : b.input("x", {2, 5, kWidth});
    const bool both = scaling == Scaling::QueryAndKeyHeads;
    const float root_half = std::sqrt(0.5f);
    float q_after_split = both ? root_half : 1.0f;
    if (scaling == Scaling::QueryHeads) q_after_split = 0.5f;
    const auto q =
        heads("q", {0, 2, 1, 3}, 1, false, scaling == Scaling::QueryProjection ? 0.5f : 1.0f, q_after_split);
    const auto k = heads("k", {0, 2, 3, 1}, 2, dynamic || both, 1.0f, both ? root_half : 1.0f);
    const auto v = heads("v", {0, 2, 1, 3}, 3, false, 1.0f, scale_value ? 0.5f : 1.0f);
    auto scores = b.op("MatMul", {q, k});
    if (scaling == Scaling::Scores)
      scores = b.op("Div", {scores, b.constant("scale", Tensor::scalar<float>(2.0f))});
    if (with_mask) scores = b.op("Add", {scores, b.input("mask", {2, 1, 1, 5})});
    const auto weights = b.op("Softmax", {scores}, attrs({{"axis", std::int64_t{-1}}}), "softmax");
    const auto context = b.op("Transpose", {b.op("MatMul", {weights, v})},
                              attrs({{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}}));
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

TEST_CASE("AttentionFusion takes the scale from Q, Kᵀ or Q's projection as well as from the scores") {
  for (const Scaling scaling : {Scaling::QueryHeads, Scaling::QueryProjection, Scaling::QueryAndKeyHeads}) {
    CAPTURE(static_cast<int>(scaling));
    AttentionBlock block;
    block.scaling = scaling;
    const Graph original = block.build(true);
    Graph graph = original;
    CHECK(run_pass(graph, "AttentionFusion").effect_times == 1);
    run_pass(graph, "DeadNodeElimination");
    REQUIRE(graph.node_count() == 1);
    const Node* attention = only_node(graph, "Attention", "asc");
    // 1/sqrt(head size 4), however it was split over the Mul nodes.
    CHECK(attention->attributes.get_float("scale", 0) == doctest::Approx(0.5).epsilon(1e-6));
    // 19 nodes of the Scores layout less its Div, plus one Mul (two for Q and Kᵀ; K's split then
    // takes two Transposes).
    CHECK(attention->provenance.size() == (scaling == Scaling::QueryAndKeyHeads ? 21u : 19u));
    check_same_outputs(original, graph, 1e-5);
  }
}

TEST_CASE("AttentionFusion leaves a scale on V alone (it scales the output, not the scores)") {
  AttentionBlock block;
  block.scale_value = true;
  Graph graph = block.build(false);
  CHECK(run_pass(graph, "AttentionFusion").effect_times == 0);
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
