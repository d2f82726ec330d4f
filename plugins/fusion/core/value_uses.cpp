#include "core/value_uses.hpp"

#include <algorithm>
#include <memory>
#include <variant>

namespace asc::fusion {
namespace {

// Outer values a node reads: its inputs and every name its subgraphs mention (captures are
// among them; names local to a subgraph are harmless extras, as in Graph::remove_dead_nodes).
void collect_reads(const Node& node, std::unordered_set<std::string>& reads) {
  for (const auto& input : node.inputs)
    if (!input.empty()) reads.insert(input);
  for (const auto& [name, value] : node.attributes.all()) {
    auto visit = [&](const Graph& subgraph) {
      for (const Node* inner : subgraph.nodes()) collect_reads(*inner, reads);
      reads.insert(subgraph.outputs.begin(), subgraph.outputs.end());
    };
    if (const auto* graph = std::get_if<std::shared_ptr<Graph>>(&value)) {
      if (*graph) visit(**graph);
    } else if (const auto* graphs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&value)) {
      for (const auto& g : *graphs)
        if (g) visit(*g);
    }
  }
}

const std::vector<Node*> kNoConsumers;

}  // namespace

ValueUses::ValueUses(const Graph& graph) : graph_outputs_(graph.outputs.begin(), graph.outputs.end()) {
  std::unordered_set<std::string> reads;
  for (Node* node : graph.nodes()) {
    for (const auto& output : node->outputs)
      if (!output.empty()) producers_.emplace(output, node);
    reads.clear();
    collect_reads(*node, reads);
    for (const auto& value : reads) consumers_[value].push_back(node);
  }
}

Node* ValueUses::producer(const std::string& value) const {
  const auto it = producers_.find(value);
  return it == producers_.end() ? nullptr : it->second;
}

const std::vector<Node*>& ValueUses::consumers(const std::string& value) const {
  const auto it = consumers_.find(value);
  return it == consumers_.end() ? kNoConsumers : it->second;
}

bool ValueUses::read_only_within(const std::string& value, const std::vector<const Node*>& group) const {
  if (is_graph_output(value)) return false;
  for (const Node* reader : consumers(value))
    if (std::find(group.begin(), group.end(), reader) == group.end()) return false;
  return true;
}

Node* ValueUses::sole_consumer(const std::string& value) const {
  const auto& readers = consumers(value);
  return readers.size() == 1 && !is_graph_output(value) ? readers.front() : nullptr;
}

}  // namespace asc::fusion
