#include "passes/identity_elimination.hpp"

#include <algorithm>
#include <vector>

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

void append_provenance(Node& target, const Node& removed) {
  for (const auto& origin : removed.provenance)
    if (std::find(target.provenance.begin(), target.provenance.end(), origin) == target.provenance.end())
      target.provenance.push_back(origin);
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
    Node* producer = graph.producer(input);
    if (!graph.is_graph_output(output)) {
      graph.replace_all_uses(output, input);
    } else if (producer != nullptr && !graph.is_graph_output(input)) {
      // The graph output's name must survive: let the producer write it directly.
      for (auto& name : producer->outputs)
        if (name == input) name = output;
      graph.replace_all_uses(input, output);
    } else {
      continue;  // graph input or initializer passed straight to an output: nothing to fold into
    }
    if (producer != nullptr) append_provenance(*producer, *node);
    graph.remove_node(node);
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
