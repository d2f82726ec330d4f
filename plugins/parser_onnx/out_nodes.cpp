#include "out_nodes.hpp"

#include <algorithm>
#include <cctype>

#include <asc/sdk/error.hpp>

namespace asc::parser_onnx {
namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorCode::InputShapeInvalid, message); }

}  // namespace

std::vector<OutNode> parse_out_nodes(std::string_view text) {
  std::vector<OutNode> out_nodes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string entry(text.substr(start, end - start));
    start = end + 1;
    if (entry.empty()) continue;
    const auto colon = entry.rfind(':');
    const std::string index = colon == std::string::npos ? "" : entry.substr(colon + 1);
    if (colon == std::string::npos || colon == 0 || index.empty() || index.size() > 9 ||
        !std::all_of(index.begin(), index.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
      invalid("--out_nodes entry '" + entry + "' is not node_name:output_index (e.g. \"conv1:0;fc:0\")");
    out_nodes.push_back({entry.substr(0, colon), static_cast<std::size_t>(std::stoul(index))});
  }
  if (out_nodes.empty()) invalid("--out_nodes '" + std::string(text) + "' lists no node");
  return out_nodes;
}

void select_out_nodes(Graph& graph, const std::vector<OutNode>& out_nodes, const std::string& model) {
  std::vector<std::string> outputs;
  for (const auto& out : out_nodes) {
    const Node* node = graph.find_node(out.node);
    if (node == nullptr) invalid(model + ": --out_nodes names node '" + out.node + "', which the model does not have");
    if (out.index >= node->outputs.size() || node->outputs[out.index].empty())
      invalid(model + ": --out_nodes asks for output " + std::to_string(out.index) + " of " + node->describe() +
              ", which has " + std::to_string(node->outputs.size()) + " output(s)");
    const std::string& value = node->outputs[out.index];
    if (std::find(outputs.begin(), outputs.end(), value) == outputs.end()) outputs.push_back(value);
  }
  graph.outputs = std::move(outputs);
  graph.remove_dead_nodes();
}

}  // namespace asc::parser_onnx
