// Turning one pass off changes that pass's effect and no other's: a graph with one independent
// instance of every pattern, run through every registered pass in order, then again with each
// pass left out. The one documented coupling: ElementwiseChainFusion fuses the elementwise
// nodes a disabled GeluFusion or LayerNormFusion leaves behind (as ATC's UB fusion would).
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "fusion_test_support.hpp"

namespace asc::fusion_test {
namespace {

Tensor int64s(std::vector<std::int64_t> values) {
  return Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(values.size())}, values);
}

std::string scalar(GraphBuilder& b, const std::string& name, float value) { return b.constant(name, Tensor::scalar<float>(value)); }

std::string conv(GraphBuilder& b, const std::string& tag) {
  const auto x = b.input("x_" + tag, {1, 2, 5, 5});
  return b.op("Conv", {x, b.constant("W_" + tag, random_tensor({3, 2, 1, 1}, static_cast<unsigned>(tag.size())))});
}

std::string matmul(GraphBuilder& b, const std::string& tag) {
  return b.op("MatMul", {b.input("x_" + tag, {3, 4}), b.constant("W_" + tag, random_tensor({4, 5}, 9))});
}

Graph every_pattern() {
  GraphBuilder b(13);
  // Clean-ups.
  b.output(b.op("Neg", {b.op("Identity", {b.input("x_identity", {3})})}));
  b.output(b.op("Mul", {b.input("x_fold", {2, 3}), b.op("Add", {scalar(b, "c1", 1), scalar(b, "c2", 2)})}));
  const auto x_cse = b.input("x_cse", {2, 3});
  b.output(b.op("Concat", {b.op("Softmax", {x_cse}), b.op("Softmax", {x_cse})}, attrs({{"axis", std::int64_t{0}}})));
  const auto x_sym = b.input("x_sym", {Dim::symbolic("batch"), 6});
  const auto batch = b.op("Gather", {b.op("Shape", {x_sym}), b.constant("zero", Tensor::scalar<std::int64_t>(0))},
                          attrs({{"axis", std::int64_t{0}}}));
  const auto target = b.op("Concat", {b.op("Unsqueeze", {batch, b.constant("axes0", int64s({0}))}), b.constant("rest", int64s({2, 3}))},
                           attrs({{"axis", std::int64_t{0}}}));
  const auto reshaped = b.op("Reshape", {x_sym, target}, {}, "symbolic_reshape");
  b.output(reshaped);
  b.output(b.op("Reshape", {b.op("Flatten", {b.input("x_chain", {2, 3, 4})}), b.constant("to46", int64s({4, 6}))}));
  const auto t = b.op("Transpose", {b.input("x_transpose", {2, 3, 4})}, attrs({{"perm", std::vector<std::int64_t>{1, 0, 2}}}));
  b.output(b.op("Neg", {b.op("Transpose", {t}, attrs({{"perm", std::vector<std::int64_t>{1, 0, 2}}}))}));
  b.op("Relu", {b.input("x_dead", {3})}, {}, "dead");
  // Graph fusions.
  const auto bn_conv = conv(b, "bn");
  b.output(b.op("BatchNormalization", {bn_conv, b.constant("s", random_tensor({3}, 1)), b.constant("o", random_tensor({3}, 2)),
                                       b.constant("m", random_tensor({3}, 3)), b.constant("v", random_tensor({3}, 4, 0.5f, 1.5f))}));
  b.output(b.op("Add", {conv(b, "bias"), b.constant("per_channel", random_tensor({1, 3, 1, 1}, 5))}));
  b.output(b.op("Add", {matmul(b, "mmbias"), b.constant("bias", random_tensor({5}, 6))}));
  const auto x_gelu = b.input("x_gelu", {3, 4});
  const auto erf = b.op("Erf", {b.op("Div", {x_gelu, scalar(b, "sqrt2", 1.41421356f)})});
  b.output(b.op("Mul", {b.op("Mul", {x_gelu, b.op("Add", {erf, scalar(b, "one", 1)})}), scalar(b, "half", 0.5f)}));
  const auto x_ln = b.input("x_ln", {3, 8});
  const Attributes last = attrs({{"axes", std::vector<std::int64_t>{-1}}});
  const auto d = b.op("Sub", {x_ln, b.op("ReduceMean", {x_ln}, last)});
  const auto root = b.op("Sqrt", {b.op("Add", {b.op("ReduceMean", {b.op("Pow", {d, scalar(b, "two", 2)})}, last), scalar(b, "eps", 1e-5f)})});
  b.output(b.op("Div", {d, root}));
  const auto x_att = b.input("x_att", {1, 3, 4});
  auto split = [&](const std::string& name, std::vector<std::int64_t> perm) {
    const auto p = b.op("Add", {b.op("MatMul", {x_att, b.constant("Wa" + name, random_tensor({4, 4}, 20))}),
                                b.constant("ba" + name, random_tensor({4}, 21))});
    return b.op("Transpose", {b.op("Reshape", {p, b.constant("split" + name, int64s({1, 3, 2, 2}))})}, attrs({{"perm", perm}}));
  };
  const auto scores = b.op("Div", {b.op("MatMul", {split("q", {0, 2, 1, 3}), split("k", {0, 2, 3, 1})}), scalar(b, "c", 2)});
  const auto context = b.op("MatMul", {b.op("Softmax", {scores}, attrs({{"axis", std::int64_t{-1}}})), split("v", {0, 2, 1, 3})});
  b.output(b.op("Reshape", {b.op("Transpose", {context}, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}})),
                            b.constant("merge", int64s({1, 3, 4}))}));
  // UB fusions.
  b.output(b.op("Add", {conv(b, "residual"), b.input("r", {1, 3, 5, 5})}));
  b.output(b.op("Relu", {conv(b, "act")}));
  b.output(b.op("Sigmoid", {matmul(b, "mmact")}));
  b.output(b.op("Exp", {b.op("Neg", {b.input("x_elementwise", {2, 2})})}));
  Graph graph = b.finish();
  graph.values.erase(reshaped);  // as the parser leaves a reshape with a computed target
  return graph;
}

std::map<std::string, PassResult> run_all(Graph& graph, const std::string& skipped) {
  std::map<std::string, PassResult> results;
  for (const auto& registered : registry().passes()) {
    const std::string name = registered.item->name();
    if (name != skipped) results[name] = registered.item->run(graph, PassContext{registry().ops()});
  }
  return results;
}

TEST_CASE("every pass has an effect on the pattern graph, and the result is unchanged") {
  const Graph original = every_pattern();
  Graph graph = original;
  const auto results = run_all(graph, "");
  for (const auto& [pass, result] : results) {
    const std::string& name = pass;  // not a structured binding: clang 14 cannot capture one
    CAPTURE(name);
    // MatMulBiasAddFusion also fuses the attention block's three projections (AttentionFusion
    // takes asc.FusedMatMul projections as well as MatMul + Add).
    CHECK(result.effect_times == (name == "MatMulBiasAddFusion" ? 4 : 1));
  }
  check_same_outputs(original, graph, 1e-5);
}

TEST_CASE("turning one pass off changes only that pass's effect") {
  // Without AttentionFusion the scores' Div after Q·Kᵀ is a MatMul's constant scaling.
  const std::map<std::string, std::set<std::string>> coupled{{"GeluFusion", {"ElementwiseChainFusion"}},
                                                             {"LayerNormFusion", {"ElementwiseChainFusion"}},
                                                             {"AttentionFusion", {"MatMulActivationFusion"}}};
  Graph all_on = every_pattern();
  const auto reference = run_all(all_on, "");
  for (const auto& registered : registry().passes()) {
    const std::string off = registered.item->name();
    CAPTURE(off);
    const Graph original = every_pattern();
    Graph graph = original;
    const auto results = run_all(graph, off);
    for (const auto& [pass, result] : results) {
      const std::string& name = pass;  // not a structured binding: clang 14 cannot capture one
      const auto it = coupled.find(off);
      if (it != coupled.end() && it->second.count(name) != 0) continue;
      CAPTURE(name);
      CHECK(result.match_times == reference.at(name).match_times);
      CHECK(result.effect_times == reference.at(name).effect_times);
    }
    check_same_outputs(original, graph, 1e-5);
  }
}

}  // namespace
}  // namespace asc::fusion_test
