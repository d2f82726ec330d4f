// asc::make_chain_fusion (asc/sdk/fusion_rule.hpp): a plugin's "this chain becomes my op" rule.
#include <doctest/doctest.h>

#include <asc/sdk/fusion_rule.hpp>
#include <asc/sdk/op_registry.hpp>

using namespace asc;

namespace {

// x -> Conv(conv) -> BatchNormalization(bn) -> Relu(relu) -> y, and a second chain whose BN
// output also feeds the graph output (so it must not match).
Graph two_chains() {
  Graph graph;
  graph.name = "g";
  graph.opset_imports[""] = 13;
  graph.inputs = {"x"};
  for (const char* name : {"w", "gamma", "beta", "mean", "var"})
    graph.initializers[name] = Tensor::from_vector<float>({1}, {1.0f});
  graph.add_node(Node{"conv", "Conv", "", {}, {"x", "w"}, {"c"}, {"conv"}});
  graph.add_node(Node{"bn", "BatchNormalization", "", {}, {"c", "gamma", "beta", "mean", "var"}, {"b"}, {"bn"}});
  graph.add_node(Node{"relu", "Relu", "", {}, {"b"}, {"y"}, {"relu"}});
  graph.add_node(Node{"conv2", "Conv", "", {}, {"y", "w"}, {"c2"}, {"conv2"}});
  graph.add_node(Node{"bn2", "BatchNormalization", "", {}, {"c2", "gamma", "beta", "mean", "var"}, {"b2"}, {"bn2"}});
  graph.add_node(Node{"relu2", "Relu", "", {}, {"b2"}, {"z"}, {"relu2"}});
  graph.outputs = {"z", "b2"};
  return graph;
}

}  // namespace

TEST_CASE("a chain fusion rule replaces each match by one node named as the chain's last, with its provenance") {
  int calls = 0;
  const auto pass = make_chain_fusion(
      {.name = "ConvBnReluToMine",
       .description = "test",
       .pattern = {"Conv", "BatchNormalization", "Relu"},
       .rewrite = [&](const ChainMatch& match) -> std::optional<ChainReplacement> {
         ++calls;
         CHECK(match.nodes.size() == 3);
         CHECK(match.nodes[0]->name == "conv");
         REQUIRE(match.constant("gamma") != nullptr);
         CHECK(match.constant("c") == nullptr);
         ChainReplacement r{.domain = "com.example", .op_type = "Mine"};
         r.inputs = {match.nodes[0]->inputs[0], match.nodes[0]->inputs[1], "", "scale"};
         r.constants.emplace("scale", Tensor::from_vector<float>({1}, {2.0f}));
         return r;
       }});
  CHECK(pass->name() == "ConvBnReluToMine");
  CHECK(pass->category() == "GraphFusion");
  Graph graph = two_chains();
  OpRegistry ops;
  const PassResult result = pass->run(graph, PassContext{ops});
  CHECK(calls == 1);  // the second chain's BN output is a graph output
  CHECK(result.match_times == 1);
  CHECK(result.effect_times == 1);
  const Node* mine = graph.find_node("relu");
  REQUIRE(mine != nullptr);
  CHECK(mine->op_type == "Mine");
  CHECK(mine->domain == "com.example");
  CHECK(mine->outputs == std::vector<std::string>{"y"});
  CHECK(mine->provenance == std::vector<std::string>{"conv", "bn", "relu"});
  REQUIRE(mine->inputs.size() == 4);
  CHECK(mine->inputs[2].empty());
  REQUIRE(graph.is_initializer(mine->inputs[3]));
  CHECK(graph.initializers.at(mine->inputs[3]).to_doubles() == std::vector<double>{2.0});
  CHECK(graph.opset("com.example") == 1);
  CHECK(graph.find_node("conv") == nullptr);
  CHECK(graph.find_node("bn2") != nullptr);
  CHECK(graph.node_count() == 4);
}

TEST_CASE("a chain fusion rule that declines a match counts it without rewriting") {
  const auto pass = make_chain_fusion({.name = "Declines",
                                       .pattern = {"Conv", "BatchNormalization"},
                                       .rewrite = [](const ChainMatch&) { return std::optional<ChainReplacement>{}; }});
  Graph graph = two_chains();
  OpRegistry ops;
  const PassResult result = pass->run(graph, PassContext{ops});
  CHECK(result.match_times == 2);  // both Conv -> BN pairs: the last node may write a graph output
  CHECK(result.effect_times == 0);
  CHECK(graph.node_count() == 6);
}
