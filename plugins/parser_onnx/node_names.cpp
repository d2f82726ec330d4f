#include "node_names.hpp"

namespace asc::parser_onnx {

NodeNames::NodeNames(const onnx::GraphProto& main_graph) { reserve(main_graph); }

void NodeNames::reserve(const onnx::GraphProto& graph) {
  for (const auto& node : graph.node()) {
    if (!node.name().empty()) reserved_.insert(node.name());
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) reserve(attribute.g());
      for (const auto& subgraph : attribute.graphs()) reserve(subgraph);
    }
  }
}

std::string NodeNames::name_for(const onnx::NodeProto& node, std::size_t index) {
  if (!node.name().empty() && given_.insert(node.name()).second) return node.name();
  const std::string base = node.name().empty() ? node.op_type() + "_" + std::to_string(index) : node.name();
  std::string candidate = base;
  for (int suffix = 1; reserved_.count(candidate) != 0 || given_.count(candidate) != 0; ++suffix)
    candidate = base + "_" + std::to_string(suffix);
  given_.insert(candidate);
  return candidate;
}

}  // namespace asc::parser_onnx
