// GeluFusion (erf and tanh forms, in the product orders exporters use) and LayerNormFusion.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

std::string scalar(GraphBuilder& b, const std::string& name, float value) {
  return b.constant(name, Tensor::scalar<float>(value));
}

// 0.5·x·(1 + erf(x/√2)) with the final products in the order `order` (0: (x·p)·0.5,
// 1: x·(p·0.5), 2: (x·0.5)·p); `multiply` scales by 1/√2 instead of dividing by √2.
Graph erf_gelu(int order, bool multiply) {
  GraphBuilder b;
  const auto x = b.input("x", {3, 7});
  const auto scaled = multiply ? b.op("Mul", {scalar(b, "inv_sqrt2", static_cast<float>(1 / std::numbers::sqrt2)), x})
                               : b.op("Div", {x, scalar(b, "sqrt2", static_cast<float>(std::numbers::sqrt2))});
  const auto p = b.op("Add", {b.op("Erf", {scaled}), scalar(b, "one", 1)});
  std::string y;
  if (order == 0) y = b.op("Mul", {b.op("Mul", {x, p}), scalar(b, "half", 0.5f)});
  else if (order == 1) y = b.op("Mul", {x, b.op("Mul", {p, scalar(b, "half", 0.5f)})});
  else y = b.op("Mul", {b.op("Mul", {x, scalar(b, "half", 0.5f)}), p});
  b.output(y);
  return b.finish();
}

TEST_CASE("GeluFusion fuses the erf form in every product order") {
  for (int order = 0; order < 3; ++order) {
    for (const bool multiply : {false, true}) {
      CAPTURE(order);
      CAPTURE(multiply);
      const Graph original = erf_gelu(order, multiply);
      Graph graph = original;
      CHECK(run_pass(graph, "GeluFusion").effect_times == 1);
      REQUIRE(graph.node_count() == 1);
      const Node* gelu = only_node(graph, "Gelu", "asc");
      CHECK(gelu->attributes.get_string("approximate", "") == "none");
      CHECK(gelu->provenance.size() == 5);  // Div (or Mul), Erf, Add and the two Muls
      check_same_outputs(original, graph, 1e-6);
    }
  }
}

TEST_CASE("GeluFusion fuses the tanh form, with x³ as Pow or as products") {
  for (const bool pow : {true, false}) {
    GraphBuilder b;
    const auto x = b.input("x", {3, 7});
    const auto cube = pow ? b.op("Pow", {x, scalar(b, "three", 3)}) : b.op("Mul", {x, b.op("Mul", {x, x})});
    const auto inner = b.op("Add", {x, b.op("Mul", {scalar(b, "c", 0.044715f), cube})});
    const auto t = b.op("Tanh", {b.op("Mul", {inner, scalar(b, "k", static_cast<float>(std::sqrt(2 / std::numbers::pi)))})});
    b.output(b.op("Mul", {b.op("Mul", {x, b.op("Add", {t, scalar(b, "one", 1)})}), scalar(b, "half", 0.5f)}));
    const Graph original = b.finish();
    Graph graph = original;
    CHECK(run_pass(graph, "GeluFusion").effect_times == 1);
    REQUIRE(graph.node_count() == 1);
    CHECK(only_node(graph, "Gelu", "asc")->attributes.get_string("approximate", "") == "tanh");
    check_same_outputs(original, graph, 1e-6);
  }
}

TEST_CASE("GeluFusion leaves look-alikes with other constants or shared intermediates") {
  GraphBuilder b;
  const auto x = b.input("x", {4});
  const auto p = b.op("Add", {b.op("Erf", {b.op("Div", {x, scalar(b, "two", 2)})}), scalar(b, "one", 1)});
  b.output(b.op("Mul", {b.op("Mul", {x, p}), scalar(b, "half", 0.5f)}));
  const auto q = b.op("Add", {b.op("Erf", {b.op("Div", {x, scalar(b, "sqrt2", static_cast<float>(std::numbers::sqrt2))})}),
                              scalar(b, "one_", 1)});
  const auto shared = b.op("Mul", {x, q});
  b.output(b.op("Mul", {shared, scalar(b, "half_", 0.5f)}));
  b.output(shared);
  Graph graph = b.finish();
  CHECK(run_pass(graph, "GeluFusion").match_times == 0);
}

// y = (x − mean) / sqrt(var + ε) [· γ] [+ β] over the last axis.
Graph layer_norm_graph(std::int64_t opset, bool affine, bool pow) {
  GraphBuilder b(opset);
  const auto x = b.input("x", {2, 5, 16});
  const Attributes last = attrs({{"axes", std::vector<std::int64_t>{-1}}});
  const auto d = b.op("Sub", {x, b.op("ReduceMean", {x}, last)});
  const auto square = pow ? b.op("Pow", {d, scalar(b, "two", 2)}) : b.op("Mul", {d, d});
  const auto root = b.op("Sqrt", {b.op("Add", {b.op("ReduceMean", {square}, last), scalar(b, "eps", 1e-5f)})});
  auto y = b.op("Div", {d, root});
  if (affine) {
    y = b.op("Mul", {y, b.constant("gamma", random_tensor({16}, 1))});
    y = b.op("Add", {b.constant("beta", random_tensor({16}, 2)), y});
  }
  b.output(y);
  return b.finish();
}

TEST_CASE("LayerNormFusion makes LayerNormalization at opset 17 and asc.LayerNorm before") {
  for (const std::int64_t opset : {13, 17}) {
    for (const bool affine : {true, false}) {
      CAPTURE(opset);
      CAPTURE(affine);
      const Graph original = layer_norm_graph(opset, affine, opset == 13);
      Graph graph = original;
      CHECK(run_pass(graph, "LayerNormFusion").effect_times == 1);
      REQUIRE(graph.node_count() == 1);
      const Node* norm = opset >= 17 ? only_node(graph, "LayerNormalization") : only_node(graph, "LayerNorm", "asc");
      CHECK(norm->attributes.get_int("axis", 0) == -1);
      CHECK(norm->attributes.get_float("epsilon", 0) == doctest::Approx(1e-5));
      CHECK(norm->inputs.size() == (affine ? 3u : 2u));
      CHECK(norm->provenance.size() == (affine ? 9u : 7u));
      check_same_outputs(original, graph, 1e-5);
    }
  }
}

TEST_CASE("LayerNormFusion stops before a Mul that is not an affine scale") {
  GraphBuilder b(13);
  const auto x = b.input("x", {2, 16});
  const Attributes last = attrs({{"axes", std::vector<std::int64_t>{-1}}});
  const auto d = b.op("Sub", {x, b.op("ReduceMean", {x}, last)});
  const auto root = b.op("Sqrt", {b.op("Add", {b.op("ReduceMean", {b.op("Mul", {d, d})}, last), scalar(b, "eps", 1e-5f)})});
  // γ of shape [2,16] would scale rows differently: not layer normalisation's affine step.
  b.output(b.op("Mul", {b.op("Div", {d, root}), b.constant("rows", random_tensor({2, 16}, 3))}, {}, "scale_rows"));
  const Graph original = b.finish();
  Graph graph = original;
  CHECK(run_pass(graph, "LayerNormFusion").effect_times == 1);
  CHECK(graph.find_node("scale_rows") != nullptr);
  check_same_outputs(original, graph, 1e-5);
}

}  // namespace
}  // namespace asc::fusion_test
