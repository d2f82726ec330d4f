// A snapshot of who writes and who reads each value of a graph, for pattern matching.
// Graph::producer() and Graph::consumers() scan every node; passes look values up thousands of
// times, so they build this index once per sweep. It goes stale as soon as the graph is
// rewritten: passes collect their matches first and rewrite afterwards.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <asc/sdk/graph.hpp>

namespace asc::fusion {

class ValueUses {
 public:
  explicit ValueUses(const Graph& graph);

  Node* producer(const std::string& value) const;
  // Distinct nodes reading `value` as an input or from inside a subgraph, in graph order.
  const std::vector<Node*>& consumers(const std::string& value) const;
  bool is_graph_output(const std::string& value) const { return graph_outputs_.count(value) != 0; }
  // True when every reader of `value` is in `group` and it is not a graph output: a rewrite
  // that replaces `group` may drop the value.
  bool read_only_within(const std::string& value, const std::vector<const Node*>& group) const;
  // The one node reading `value`, when there is exactly one and `value` is not a graph output.
  Node* sole_consumer(const std::string& value) const;

 private:
  std::unordered_map<std::string, Node*> producers_;
  std::unordered_map<std::string, std::vector<Node*>> consumers_;
  std::unordered_set<std::string> graph_outputs_;
};

}  // namespace asc::fusion
