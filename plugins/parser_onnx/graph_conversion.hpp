#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include <asc/sdk/graph.hpp>
#include <onnx/onnx_pb.h>

#include "node_names.hpp"

namespace asc::parser_onnx {

// Converts an ONNX graph (checked, shapes inferred, external data loaded) to asc::Graph,
// subgraph attributes included. Initializers' raw_data is moved out of `graph` (see
// tensor_from_proto). Errors name the model: EE2002 for tensors of unsupported element types
// (and sparse initializers), EE2003 for attribute kinds asc has no AttributeValue for.
class GraphConverter {
 public:
  GraphConverter(const std::filesystem::path& model_path, const onnx::GraphProto& main_graph);

  // `opset_imports` (domains normalised: "ai.onnx" is "") is copied into every (sub)graph.
  Graph convert(onnx::GraphProto& graph, const std::map<std::string, std::int64_t>& opset_imports);

 private:
  Node convert_node(onnx::NodeProto& proto, std::size_t index, const std::map<std::string, std::int64_t>& opsets);
  AttributeValue convert_attribute(onnx::AttributeProto& attribute, const Node& node,
                                   const std::map<std::string, std::int64_t>& opsets);

  std::filesystem::path model_path_;
  NodeNames names_;
};

// "ai.onnx" and "" both name the default domain; asc spells it "".
std::string normalized_domain(const std::string& domain);

}  // namespace asc::parser_onnx
