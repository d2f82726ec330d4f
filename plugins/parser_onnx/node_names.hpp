#pragma once

#include <cstddef>
#include <set>
#include <string>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Hands out node names unique across a model, subgraphs included, since provenance refers to
// nodes by name. A node keeps its own name the first time it appears; an unnamed node gets
// "<op_type>_<index in its graph>", and a name already taken gets a "_<n>" suffix.
class NodeNames {
 public:
  explicit NodeNames(const onnx::GraphProto& main_graph);
  std::string name_for(const onnx::NodeProto& node, std::size_t index);

 private:
  void reserve(const onnx::GraphProto& graph);
  std::set<std::string> reserved_;  // every explicit name in the model
  std::set<std::string> given_;
};

}  // namespace asc::parser_onnx
