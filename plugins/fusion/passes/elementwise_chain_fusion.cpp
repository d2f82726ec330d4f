#include "passes/elementwise_chain_fusion.hpp"

#include <algorithm>
#include <memory>
#include <unordered_set>
#include <vector>

#include "core/claims.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

bool fully_known(const std::vector<Dim>& dims) {
  return std::all_of(dims.begin(), dims.end(), [](const Dim& d) { return d.is_static() || !d.symbol.empty(); });
}

std::vector<Node*> elementwise_chain_fusion_chain_from(Node* first, const Graph& graph, const ValueUses& uses,
                                                       const Claims& claims) {
  const auto shape = value_dims(graph, first->outputs[0]);
  if (!shape || !fully_known(*shape)) return {first};
  std::vector<Node*> chain{first};
  while (true) {
    Node* next = uses.sole_consumer(chain.back()->outputs[0]);
    if (next == nullptr || !is_elementwise(*next) || claims.taken(next) || next->outputs.size() != 1 ||
        value_dims(graph, next->outputs[0]) != shape)
      break;
    chain.push_back(next);
  }
  return chain;
}

ValueInfo info_for(const Graph& graph, const std::string& value, const std::string& name) {
  ValueInfo info{name, value_dtype(graph, value), value_dims(graph, value)};
  return info;
}

// The chain as a node whose body holds the original nodes. Values made inside the chain are
// renamed under the fused node's name: Graph treats names a body mentions as reads of the
// outer scope, so they must not collide with outer values (the chain's output above all).
Node fused_chain(const Graph& graph, const std::vector<Node*>& chain) {
  const std::string name = chain.front()->name;
  std::unordered_set<std::string> produced;
  for (const Node* node : chain) produced.insert(node->outputs[0]);
  auto inner = [&](const std::string& value) { return produced.count(value) != 0 ? name + "/" + value : value; };

  auto body = std::make_shared<Graph>();
  body->name = name;
  body->opset_imports = graph.opset_imports;
  Node fused{name, "ElementwiseChain", kFusionDomain, {}, {}, {chain.back()->outputs[0]}, {}};
  for (const Node* node : chain) {
    Node step = *node;
    for (auto& input : step.inputs) {
      if (input.empty()) continue;
      if (produced.count(input) == 0 && std::find(fused.inputs.begin(), fused.inputs.end(), input) == fused.inputs.end()) {
        fused.inputs.push_back(input);
        body->inputs.push_back(input);
        body->values[input] = info_for(graph, input, input);
      }
      input = inner(input);
    }
    step.outputs[0] = inner(node->outputs[0]);
    body->values[step.outputs[0]] = info_for(graph, node->outputs[0], step.outputs[0]);
    body->add_node(std::move(step));
  }
  body->outputs = {inner(chain.back()->outputs[0])};
  fused.attributes.set("body", std::move(body));
  return fused;
}

}  // namespace

PassResult ElementwiseChainFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  Claims claims;
  std::vector<std::vector<Node*>> chains;
  for (Node* node : graph.nodes()) {
    if (!is_elementwise(*node) || claims.taken(node) || node->outputs.size() != 1) continue;
    std::vector<Node*> chain = elementwise_chain_fusion_chain_from(node, graph, uses, claims);
    if (chain.size() < 2) continue;
    claims.take(chain);
    chains.push_back(std::move(chain));
  }

  for (const auto& chain : chains) {
    ++result.match_times;
    Node fused = fused_chain(graph, chain);
    import_fusion_domain(graph);
    graph.replace_nodes(chain, std::move(fused));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
