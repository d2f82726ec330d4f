#include "tensor_walk.hpp"

namespace asc::parser_onnx {
namespace {

std::string label_of(const onnx::TensorProto& tensor, const std::string& fallback) {
  return tensor.name().empty() ? fallback : "tensor '" + tensor.name() + "'";
}

void walk_graph(onnx::GraphProto& graph, const TensorVisitor& visit);

void walk_sparse(onnx::SparseTensorProto& sparse, const std::string& fallback, const TensorVisitor& visit) {
  if (sparse.has_values()) visit(*sparse.mutable_values(), label_of(sparse.values(), fallback) + " (sparse values)");
  if (sparse.has_indices())
    visit(*sparse.mutable_indices(), label_of(sparse.values(), fallback) + " (sparse indices)");
}

void walk_nodes(google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, const TensorVisitor& visit) {
  for (auto& node : nodes) {
    for (auto& attribute : *node.mutable_attribute()) {
      const std::string fallback = "attribute '" + attribute.name() + "' of node '" + node.name() + "' (" +
                                   node.op_type() + ")";
      if (attribute.has_t()) visit(*attribute.mutable_t(), label_of(attribute.t(), fallback));
      for (auto& tensor : *attribute.mutable_tensors()) visit(tensor, label_of(tensor, fallback));
      if (attribute.has_sparse_tensor()) walk_sparse(*attribute.mutable_sparse_tensor(), fallback, visit);
      for (auto& sparse : *attribute.mutable_sparse_tensors()) walk_sparse(sparse, fallback, visit);
      if (attribute.has_g()) walk_graph(*attribute.mutable_g(), visit);
      for (auto& graph : *attribute.mutable_graphs()) walk_graph(graph, visit);
    }
  }
}

void walk_graph(onnx::GraphProto& graph, const TensorVisitor& visit) {
  for (auto& tensor : *graph.mutable_initializer()) visit(tensor, label_of(tensor, "unnamed initializer"));
  for (auto& sparse : *graph.mutable_sparse_initializer()) walk_sparse(sparse, "unnamed sparse initializer", visit);
  walk_nodes(*graph.mutable_node(), visit);
}

}  // namespace

void for_each_tensor(onnx::ModelProto& model, const TensorVisitor& visit) {
  walk_graph(*model.mutable_graph(), visit);
  for (auto& function : *model.mutable_functions()) walk_nodes(*function.mutable_node(), visit);
}

}  // namespace asc::parser_onnx
