#include "asc/sdk/fusion_rule.hpp"

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

class ChainFusion final : public Pass {
 public:
  explicit ChainFusion(ChainFusionRule rule) : rule_(std::move(rule)) {
    if (rule_.name.empty() || rule_.pattern.empty() || !rule_.rewrite)
      throw Error(ErrorCode::PluginRegistrationFailed, "a chain fusion rule needs a name, a pattern and a rewrite");
  }
  std::string name() const override { return rule_.name; }
  std::string category() const override { return "GraphFusion"; }
  std::string description() const override { return rule_.description; }

  PassResult run(Graph& graph, const PassContext&) const override {
    PassResult result;
    // Matches are collected first and rewritten after: a rewrite changes the node list.
    std::vector<std::vector<Node*>> matches;
    for (Node* node : graph.nodes())
      if (auto chain = match_at(graph, node)) matches.push_back(std::move(*chain));
    for (const std::vector<Node*>& chain : matches) {
      ++result.match_times;
      const ChainMatch match{graph, std::vector<const Node*>(chain.begin(), chain.end())};
      std::optional<ChainReplacement> replacement = rule_.rewrite(match);
      if (!replacement) continue;
      rewrite(graph, chain, std::move(*replacement));
      ++result.effect_times;
    }
    return result;
  }

 private:
  std::optional<std::vector<Node*>> match_at(const Graph& graph, Node* first) const {
    std::vector<Node*> chain{first};
    for (std::size_t i = 0;; ++i) {
      Node* node = chain.back();
      if (!node->domain.empty() && node->domain != "ai.onnx") return std::nullopt;
      if (node->op_type != rule_.pattern[i] || node->outputs.empty() || node->outputs[0].empty()) return std::nullopt;
      // Outputs past the first (BatchNormalization's running statistics) must be unused.
      for (std::size_t o = 1; o < node->outputs.size(); ++o)
        if (!node->outputs[o].empty() && (graph.is_graph_output(node->outputs[o]) || !graph.consumers(node->outputs[o]).empty()))
          return std::nullopt;
      if (i + 1 == rule_.pattern.size()) return chain;
      // The intermediate must be read by the next node alone and be nothing the graph returns.
      if (graph.is_graph_output(node->outputs[0])) return std::nullopt;
      const std::vector<Node*> readers = graph.consumers(node->outputs[0]);
      if (readers.size() != 1) return std::nullopt;
      chain.push_back(readers.front());
    }
  }

  void rewrite(Graph& graph, const std::vector<Node*>& chain, ChainReplacement replacement) const {
    const Node& last = *chain.back();
    std::map<std::string, std::string> fresh;
    for (auto& [key, tensor] : replacement.constants) {
      const std::string value = graph.unique_value_name(last.name + "." + key);
      graph.initializers[value] = std::move(tensor);
      fresh[key] = value;
    }
    for (std::string& input : replacement.inputs)
      if (const auto found = fresh.find(input); found != fresh.end()) input = found->second;
    const std::string domain = replacement.domain == "ai.onnx" ? "" : replacement.domain;
    if (graph.opset(domain) == 0) graph.opset_imports[domain] = replacement.domain_opset;
    Node node{last.name, replacement.op_type, domain, std::move(replacement.attributes),
              std::move(replacement.inputs), last.outputs, {}};
    node.outputs.resize(1);  // the chain's result; the last node's optional outputs are unused
    graph.replace_nodes(std::span<Node* const>(chain.data(), chain.size()), std::move(node));
  }

  ChainFusionRule rule_;
};

}  // namespace

const Tensor* ChainMatch::constant(const std::string& value) const {
  const auto found = graph.initializers.find(value);
  return found == graph.initializers.end() ? nullptr : &found->second;
}

std::shared_ptr<const Pass> make_chain_fusion(ChainFusionRule rule) {
  return std::make_shared<const ChainFusion>(std::move(rule));
}

}  // namespace asc
