#include "passes/transpose_optimization.hpp"

#include <numeric>
#include <optional>
#include <unordered_set>
#include <vector>

#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

// The permutation of a Transpose; without 'perm' it reverses the axes (needs the input rank).
std::optional<std::vector<std::int64_t>> permutation(const Graph& graph, const Node& transpose) {
  if (transpose.attributes.has("perm")) return transpose.attributes.get_ints("perm");
  const auto rank = value_rank(graph, transpose.inputs.at(0));
  if (!rank) return std::nullopt;
  std::vector<std::int64_t> reversed(*rank);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  return reversed;
}

bool is_identity(const std::vector<std::int64_t>& perm) {
  for (std::size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<std::int64_t>(i)) return false;
  return true;
}

// The output shape of a Transpose by `perm` of `input`, when its shape is static and the
// permutation moves only axes of size 1: the other axes keep their order, so every element
// keeps its place in memory and the Transpose is a Reshape. nullopt otherwise (and for an empty
// tensor, whose 0 dims a Reshape would read as "copy the input's").
std::optional<Shape> unit_axes_reshape(const Graph& graph, const std::string& input,
                                       const std::vector<std::int64_t>& perm) {
  const auto shape = value_static_shape(graph, input);
  if (!shape || shape->size() != perm.size()) return std::nullopt;
  Shape output;
  std::vector<bool> seen(perm.size(), false);
  std::int64_t last_moved_axis = -1;  // the input axis of the previous output axis longer than 1
  for (const std::int64_t axis : perm) {
    if (axis < 0 || axis >= static_cast<std::int64_t>(perm.size()) || seen[static_cast<std::size_t>(axis)])
      return std::nullopt;
    seen[static_cast<std::size_t>(axis)] = true;
    const std::int64_t size = (*shape)[static_cast<std::size_t>(axis)];
    if (size == 0) return std::nullopt;
    if (size > 1) {
      if (axis < last_moved_axis) return std::nullopt;
      last_moved_axis = axis;
    }
    output.push_back(size);
  }
  return output;
}

struct TransposeChain {
  std::vector<Node*> nodes;
  std::vector<std::int64_t> perm;  // composed: output axis i is input axis perm[i]
  std::optional<Shape> reshape_to;  // set when perm moves only axes of size 1 (unit_axes_reshape)
};

std::optional<TransposeChain> transpose_optimization_chain_from(Node* first, const Graph& graph,
                                                                const ValueUses& uses) {
  auto perm = permutation(graph, *first);
  if (!perm) return std::nullopt;
  TransposeChain chain{{first}, *perm};
  while (true) {
    Node* next = uses.sole_consumer(chain.nodes.back()->outputs.at(0));
    if (!is_op(next, "Transpose")) break;
    const auto next_perm = permutation(graph, *next);
    if (!next_perm || next_perm->size() != chain.perm.size()) break;
    std::vector<std::int64_t> composed(chain.perm.size());
    for (std::size_t i = 0; i < composed.size(); ++i) composed[i] = chain.perm[static_cast<std::size_t>((*next_perm)[i])];
    chain.perm = std::move(composed);
    chain.nodes.push_back(next);
  }
  return chain;
}

}  // namespace

PassResult TransposeOptimization::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  std::unordered_set<const Node*> claimed;
  std::vector<TransposeChain> chains;
  for (Node* node : graph.nodes()) {
    if (!is_op(node, "Transpose") || claimed.count(node) != 0) continue;
    auto chain = transpose_optimization_chain_from(node, graph, uses);
    if (!chain) continue;
    claimed.insert(chain->nodes.begin(), chain->nodes.end());
    if (!is_identity(chain->perm)) chain->reshape_to = unit_axes_reshape(graph, node->inputs[0], chain->perm);
    if (chain->nodes.size() > 1 || is_identity(chain->perm) || chain->reshape_to) chains.push_back(std::move(*chain));
  }

  for (auto& chain : chains) {
    ++result.match_times;
    const std::string input = chain.nodes.front()->inputs[0];
    const std::string output = chain.nodes.back()->outputs[0];
    if (is_identity(chain.perm)) {
      if (!can_bypass(graph, input, output)) continue;
      Node* last = chain.nodes.back();
      if (chain.nodes.size() > 1)
        last = &graph.replace_nodes(chain.nodes, Node{last->name, "Identity", "", {}, {input}, {output}, {}});
      if (bypass_node(graph, last, input, output)) ++result.effect_times;
      continue;
    }
    if (const auto& shape = chain.reshape_to) {
      const Shape dims{static_cast<std::int64_t>(shape->size())};
      const std::string target = add_initializer(graph, output + "_shape", Tensor::from_vector<std::int64_t>(dims, *shape));
      graph.replace_nodes(chain.nodes, Node{chain.nodes.front()->name, "Reshape", "", {}, {input, target}, {output}, {}});
      ++result.effect_times;
      continue;
    }
    Attributes attributes;
    attributes.set("perm", chain.perm);
    graph.replace_nodes(chain.nodes, Node{chain.nodes.front()->name, "Transpose", "", attributes, {input}, {output}, {}});
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
