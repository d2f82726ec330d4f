#include "passes/reshape_chain_folding.hpp"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <vector>

#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

// Reshape's shape operand for `dims`: static dims as they are, one unknown dim as -1. nullopt
// with more than one unknown dim, or a zero-sized dim (Reshape would read 0 as "copy").
std::optional<std::vector<std::int64_t>> target_shape(const std::vector<Dim>& dims) {
  std::vector<std::int64_t> shape;
  int unknown = 0;
  for (const Dim& d : dims) {
    if (d.is_static() && d.value == 0) return std::nullopt;
    if (!d.is_static()) ++unknown;
    shape.push_back(d.is_static() ? d.value : -1);
  }
  if (unknown > 1) return std::nullopt;
  return shape;
}

std::vector<Node*> reshape_chain_folding_chain_from(Node* first, const ValueUses& uses) {
  std::vector<Node*> chain{first};
  while (true) {
    Node* next = uses.sole_consumer(chain.back()->outputs.at(0));
    if (next == nullptr || !is_reshape_like(*next) || next->inputs.at(0) != chain.back()->outputs.at(0)) break;
    chain.push_back(next);
  }
  return chain;
}

}  // namespace

PassResult ReshapeChainFolding::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  std::unordered_set<const Node*> claimed;
  std::vector<std::vector<Node*>> chains;
  for (Node* node : graph.nodes()) {
    if (!is_reshape_like(*node) || claimed.count(node) != 0 || node->inputs.empty() || node->outputs.size() != 1)
      continue;
    std::vector<Node*> chain = reshape_chain_folding_chain_from(node, uses);
    claimed.insert(chain.begin(), chain.end());
    chains.push_back(std::move(chain));
  }

  for (const auto& chain : chains) {
    const std::string input = chain.front()->inputs[0];
    const std::string output = chain.back()->outputs[0];
    const auto in_dims = value_dims(graph, input);
    const auto out_dims = value_dims(graph, output);
    const bool no_op = in_dims && out_dims && *in_dims == *out_dims &&
                       std::all_of(in_dims->begin(), in_dims->end(), [](const Dim& d) { return d.is_static(); });
    if (chain.size() < 2 && !no_op) continue;
    ++result.match_times;
    if (no_op && can_bypass(graph, input, output)) {
      Node* last = chain.back();
      if (chain.size() > 1) last = &graph.replace_nodes(chain, Node{chain.back()->name, "Identity", "", {}, {input}, {output}, {}});
      if (bypass_node(graph, last, input, output)) ++result.effect_times;
      continue;
    }
    if (chain.size() < 2) continue;
    const auto shape = out_dims ? target_shape(*out_dims) : std::nullopt;
    if (!shape) continue;
    const std::string shape_name = add_initializer(
        graph, output + "_shape", Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(shape->size())}, *shape));
    Node reshape{chain.front()->name, "Reshape", "", {}, {input, shape_name}, {output}, {}};
    graph.replace_nodes(chain, std::move(reshape));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
