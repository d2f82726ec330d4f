#include "passes/common_subexpression_elimination.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"

namespace asc::fusion {
namespace {

std::string signature(const Node& node) {
  std::string key = node.domain + '\x1f' + node.op_type + '\x1f' + std::to_string(node.outputs.size());
  for (const auto& input : node.inputs) key += '\x1f' + input;
  return key;
}

bool mergeable(const Graph& graph, const Node& node) {
  if (node.outputs.empty() || is_nondeterministic(node) || has_subgraph(node)) return false;
  return std::none_of(node.outputs.begin(), node.outputs.end(),
                      [&](const std::string& output) { return graph.is_graph_output(output); });
}

// The earlier node must provide every output the later one does.
bool provides_outputs(const Node& kept, const Node& duplicate) {
  for (std::size_t i = 0; i < duplicate.outputs.size(); ++i)
    if (!duplicate.outputs[i].empty() && kept.outputs[i].empty()) return false;
  return true;
}

}  // namespace

PassResult CommonSubexpressionElimination::run(Graph& graph, const PassContext&) const {
  PassResult result;
  std::unordered_map<std::string, std::vector<Node*>> seen;
  const std::vector<Node*> snapshot(graph.nodes().begin(), graph.nodes().end());
  // Topological order: renaming a duplicate's outputs only touches nodes not visited yet, so
  // their signatures already name the surviving values.
  for (Node* node : snapshot) {
    if (!mergeable(graph, *node)) continue;
    auto& candidates = seen[signature(*node)];
    const auto same = std::find_if(candidates.begin(), candidates.end(), [&](const Node* earlier) {
      return earlier->attributes == node->attributes;
    });
    if (same == candidates.end()) {
      candidates.push_back(node);
      continue;
    }
    ++result.match_times;
    Node* kept = *same;
    if (!provides_outputs(*kept, *node)) continue;
    for (std::size_t i = 0; i < node->outputs.size(); ++i)
      if (!node->outputs[i].empty()) graph.replace_all_uses(node->outputs[i], kept->outputs[i]);
    append_provenance(*kept, *node);
    graph.remove_node(node);
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
