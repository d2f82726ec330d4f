#include "passes/identity_elimination.hpp"

#include <vector>

#include "core/graph_edits.hpp"

namespace asc::fusion {
namespace {

bool is_removable(const Graph& graph, const Node& node) {
  if (!node.domain.empty() || node.inputs.empty() || node.inputs[0].empty()) return false;
  if (node.op_type == "Identity") return true;
  if (node.op_type != "Dropout") return false;
  // Inference form only: no training_mode input (or a constant false one), and no used mask.
  if (node.inputs.size() > 2 && !node.inputs[2].empty()) {
    auto it = graph.initializers.find(node.inputs[2]);
    if (it == graph.initializers.end() || it->second.to_int64s().at(0) != 0) return false;
  }
  if (node.outputs.size() > 1 && !node.outputs[1].empty()) {
    if (graph.is_graph_output(node.outputs[1]) || !graph.consumers(node.outputs[1]).empty()) return false;
  }
  return true;
}

}  // namespace

PassResult IdentityElimination::run(Graph& graph, const PassContext&) const {
  PassResult result;
  std::vector<Node*> candidates;
  for (Node* node : graph.nodes())
    if (is_removable(graph, *node)) candidates.push_back(node);

  for (Node* node : candidates) {
    ++result.match_times;
    const std::string input = node->inputs[0];
    const std::string output = node->outputs[0];
    if (bypass_node(graph, node, input, output)) ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
