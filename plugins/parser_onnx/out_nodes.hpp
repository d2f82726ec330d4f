#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <asc/sdk/graph.hpp>

namespace asc::parser_onnx {

struct OutNode {
  std::string node;
  std::size_t index = 0;
};

// Parses ATC's --out_nodes: "node:0;node:1;other:0" (the node name ends at the last ':', so
// names containing ':' work). Throws EE1009 naming the entry that is not `name:index`.
std::vector<OutNode> parse_out_nodes(std::string_view text);

// Makes the listed node outputs the graph's outputs, in the order given, and removes every node
// and initializer that no longer reaches them (graph inputs stay). Throws EE1009 naming the node
// when no node has that name, or the index when the node has no such output; `model` names the file in messages.
void select_out_nodes(Graph& graph, const std::vector<OutNode>& out_nodes, const std::string& model);

}  // namespace asc::parser_onnx
