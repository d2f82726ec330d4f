// Conv fusions: BatchNormalization folding, bias Add folding, residual Add and activations.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

struct ConvGraph {
  GraphBuilder builder;
  std::string x, conv;
};

// x [1,3,8,8] -> Conv(W [4,3,3,3], B [4], pads 1) at the given opset.
ConvGraph conv_graph(std::int64_t opset = 13, bool with_bias = true) {
  ConvGraph g{GraphBuilder(opset), "", ""};
  g.x = g.builder.input("x", {1, 3, 8, 8});
  std::vector<std::string> inputs{g.x, g.builder.constant("W", random_tensor({4, 3, 3, 3}, 1))};
  if (with_bias) inputs.push_back(g.builder.constant("B", random_tensor({4}, 2)));
  g.conv = g.builder.op("Conv", inputs, attrs({{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}}), "conv");
  return g;
}

std::string batch_norm(GraphBuilder& b, const std::string& input, Attributes attributes = {}) {
  return b.op("BatchNormalization",
              {input, b.constant("scale", random_tensor({4}, 3)), b.constant("shift", random_tensor({4}, 4)),
               b.constant("mean", random_tensor({4}, 5)), b.constant("var", random_tensor({4}, 6, 0.5f, 2.0f))},
              std::move(attributes), "bn");
}

bool conv_has_origin(const Node& node, const std::string& origin) {
  return std::find(node.provenance.begin(), node.provenance.end(), origin) != node.provenance.end();
}

TEST_CASE("ConvBatchNormFusion folds BatchNormalization into the Conv's weights and bias") {
  for (const bool with_bias : {true, false}) {
    ConvGraph g = conv_graph(13, with_bias);
    g.builder.output(g.builder.op("Relu", {batch_norm(g.builder, g.conv)}));
    const Graph original = g.builder.finish();
    Graph graph = original;
    const PassResult result = run_pass(graph, "ConvBatchNormFusion");
    CHECK(result.match_times == 1);
    CHECK(result.effect_times == 1);
    CHECK(count_ops(graph, "BatchNormalization") == 0);
    const Node* conv = only_node(graph, "Conv");
    CHECK(conv->inputs.size() == 3);
    CHECK(conv_has_origin(*conv, "conv"));
    CHECK(conv_has_origin(*conv, "bn"));
    check_same_outputs(original, graph, 1e-5);
  }
}

TEST_CASE("ConvBatchNormFusion leaves a Conv whose result is also read elsewhere, and training-mode BN") {
  ConvGraph g = conv_graph();
  g.builder.output(batch_norm(g.builder, g.conv));
  g.builder.output(g.builder.op("Relu", {g.conv}));
  Graph graph = g.builder.finish();
  CHECK(run_pass(graph, "ConvBatchNormFusion").match_times == 0);

  ConvGraph t = conv_graph(15);
  t.builder.output(batch_norm(t.builder, t.conv, attrs({{"training_mode", std::int64_t{1}}})));
  Graph training = t.builder.finish();
  CHECK(run_pass(training, "ConvBatchNormFusion").effect_times == 0);
  CHECK(count_ops(training, "BatchNormalization") == 1);
}

TEST_CASE("ConvBiasAddFusion folds a per-channel constant Add into the bias") {
  for (const bool with_bias : {true, false}) {
    ConvGraph g = conv_graph(13, with_bias);
    g.builder.output(g.builder.op("Add", {g.builder.constant("c", random_tensor({1, 4, 1, 1}, 9)), g.conv}, {}, "add"));
    const Graph original = g.builder.finish();
    Graph graph = original;
    CHECK(run_pass(graph, "ConvBiasAddFusion").effect_times == 1);
    CHECK(count_ops(graph, "Add") == 0);
    CHECK(only_node(graph, "Conv")->inputs.size() == 3);
    check_same_outputs(original, graph);
  }
  // A [4] addend broadcasts along the width axis, not the channels: not a bias.
  ConvGraph g = conv_graph();
  g.builder.output(g.builder.op("Add", {g.conv, g.builder.constant("c", random_tensor({8}, 9))}));
  Graph graph = g.builder.finish();
  CHECK(run_pass(graph, "ConvBiasAddFusion").effect_times == 0);
}

TEST_CASE("ConvResidualAddFusion makes a FusedConv with the residual as fourth input") {
  ConvGraph g = conv_graph(13, false);
  const auto r = g.builder.input("r", {1, 4, 8, 8});
  g.builder.output(g.builder.op("Add", {r, g.conv}, {}, "add"));
  const Graph original = g.builder.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "ConvResidualAddFusion").effect_times == 1);
  const Node* fused = only_node(graph, "FusedConv", "asc");
  CHECK(fused->inputs == std::vector<std::string>{"x", "W", "", "r"});
  CHECK(graph.opset("asc") == 1);
  check_same_outputs(original, graph);
}

TEST_CASE("ConvResidualAddFusion gives an Add of two Convs to the later one") {
  ConvGraph g = conv_graph();
  const auto second = g.builder.op("Conv", {g.x, g.builder.constant("W2", random_tensor({4, 3, 1, 1}, 11))}, {}, "second");
  g.builder.output(g.builder.op("Add", {g.conv, second}));
  const Graph original = g.builder.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "ConvResidualAddFusion").effect_times == 1);
  const Node* fused = only_node(graph, "FusedConv", "asc");
  CHECK(fused->name == "second");
  CHECK(fused->inputs.back() == g.conv);
  check_same_outputs(original, graph);
}

struct ActivationCase {
  const char* kind;
  std::int64_t opset;
};

TEST_CASE("ConvActivationFusion fuses each activation kind") {
  for (const ActivationCase& c : {ActivationCase{"Relu", 13}, {"Sigmoid", 13}, {"Tanh", 13}, {"HardSwish", 14},
                                  {"LeakyRelu", 13}, {"HardSigmoid", 13}, {"Clip", 13}, {"SiLU", 13}}) {
    CAPTURE(c.kind);
    ConvGraph g = conv_graph(c.opset);
    GraphBuilder& b = g.builder;
    const std::string kind = c.kind;
    std::string y;
    if (kind == "Clip") y = b.op("Clip", {g.conv, b.constant("lo", Tensor::scalar<float>(0)), b.constant("hi", Tensor::scalar<float>(6))});
    else if (kind == "SiLU") y = b.op("Mul", {g.conv, b.op("Sigmoid", {g.conv})});
    else if (kind == "LeakyRelu") y = b.op(kind, {g.conv}, attrs({{"alpha", 0.3f}}));
    else y = b.op(kind, {g.conv});
    b.output(y);
    const Graph original = b.finish();
    Graph graph = original;
    CHECK(run_pass(graph, "ConvActivationFusion").effect_times == 1);
    REQUIRE(graph.node_count() == 1);
    const Node* fused = only_node(graph, "FusedConv", "asc");
    CHECK(fused->attributes.get_string("activation", "") == kind);
    CHECK(fused->outputs[0] == y);
    if (kind == "Clip") CHECK(fused->attributes.get_floats("activation_params") == std::vector<float>{0, 6});
    if (kind == "LeakyRelu") CHECK(fused->attributes.get_floats("activation_params") == std::vector<float>{0.3f});
    check_same_outputs(original, graph);
  }
}

TEST_CASE("Conv, residual Add and Relu become one FusedConv") {
  ConvGraph g = conv_graph();
  const auto r = g.builder.input("r", {1, 4, 8, 8});
  g.builder.output(g.builder.op("Relu", {g.builder.op("Add", {g.conv, r})}));
  const Graph original = g.builder.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "ConvResidualAddFusion").effect_times == 1);
  CHECK(run_pass(graph, "ConvActivationFusion").effect_times == 1);
  REQUIRE(graph.node_count() == 1);
  const Node* fused = only_node(graph, "FusedConv", "asc");
  CHECK(fused->inputs.size() == 4);
  CHECK(fused->attributes.get_string("activation", "") == "Relu");
  CHECK(fused->provenance.size() == 3);
  check_same_outputs(original, graph);
}

TEST_CASE("ConvActivationFusion leaves a Conv whose result is also read elsewhere, and Clip with computed bounds") {
  ConvGraph g = conv_graph();
  g.builder.output(g.builder.op("Relu", {g.conv}));
  g.builder.output(g.builder.op("Neg", {g.conv}));
  Graph graph = g.builder.finish();
  CHECK(run_pass(graph, "ConvActivationFusion").match_times == 0);

  ConvGraph c = conv_graph();
  const auto bound = c.builder.input("bound", {});
  c.builder.output(c.builder.op("Clip", {c.conv, bound}));
  Graph clip = c.builder.finish();
  CHECK(run_pass(clip, "ConvActivationFusion").match_times == 0);
}

}  // namespace
}  // namespace asc::fusion_test
