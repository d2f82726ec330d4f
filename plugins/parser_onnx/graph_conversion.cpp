#include "graph_conversion.hpp"

#include <memory>
#include <set>
#include <vector>

#include <asc/sdk/error.hpp>

#include "model_label.hpp"
#include "onnx_types.hpp"
#include "tensor_conversion.hpp"

namespace asc::parser_onnx {
namespace {

using AttributeType = onnx::AttributeProto::AttributeType;

// IR version 1 models may leave an attribute's `type` unset; the populated field tells it.
AttributeType effective_type(const onnx::AttributeProto& a) {
  if (a.type() != onnx::AttributeProto::UNDEFINED) return a.type();
  if (a.has_f()) return onnx::AttributeProto::FLOAT;
  if (a.has_i()) return onnx::AttributeProto::INT;
  if (a.has_s()) return onnx::AttributeProto::STRING;
  if (a.has_t()) return onnx::AttributeProto::TENSOR;
  if (a.has_g()) return onnx::AttributeProto::GRAPH;
  if (a.has_sparse_tensor()) return onnx::AttributeProto::SPARSE_TENSOR;
  if (a.has_tp()) return onnx::AttributeProto::TYPE_PROTO;
  if (a.floats_size() > 0) return onnx::AttributeProto::FLOATS;
  if (a.ints_size() > 0) return onnx::AttributeProto::INTS;
  if (a.strings_size() > 0) return onnx::AttributeProto::STRINGS;
  if (a.tensors_size() > 0) return onnx::AttributeProto::TENSORS;
  if (a.graphs_size() > 0) return onnx::AttributeProto::GRAPHS;
  if (a.sparse_tensors_size() > 0) return onnx::AttributeProto::SPARSE_TENSORS;
  if (a.type_protos_size() > 0) return onnx::AttributeProto::TYPE_PROTOS;
  return onnx::AttributeProto::UNDEFINED;
}

}  // namespace

std::string normalized_domain(const std::string& domain) { return domain == "ai.onnx" ? "" : domain; }

GraphConverter::GraphConverter(const std::filesystem::path& model_path, const onnx::GraphProto& main_graph)
    : model_path_(model_path), names_(main_graph) {}

Graph GraphConverter::convert(onnx::GraphProto& proto, const std::map<std::string, std::int64_t>& opset_imports) {
  if (proto.sparse_initializer_size() > 0)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                model_label(model_path_) + ": sparse initializer '" + proto.sparse_initializer(0).values().name() +
                    "' in graph '" + proto.name() + "' is not supported");
  Graph graph;
  graph.name = proto.name();
  graph.opset_imports = opset_imports;

  std::set<std::string> initializer_names;
  for (auto& tensor : *proto.mutable_initializer()) {
    initializer_names.insert(tensor.name());
    graph.initializers.insert_or_assign(tensor.name(),
                                        tensor_from_proto(tensor, "initializer '" + tensor.name() + "'", model_path_));
  }
  for (const auto& input : proto.input()) {
    if (initializer_names.count(input.name()) == 0) graph.inputs.push_back(input.name());
    graph.values.insert_or_assign(input.name(), value_info_from_proto(input));
  }
  for (const auto& info : proto.value_info()) graph.values.insert_or_assign(info.name(), value_info_from_proto(info));
  for (const auto& output : proto.output()) {
    graph.outputs.push_back(output.name());
    graph.values.insert_or_assign(output.name(), value_info_from_proto(output));
  }
  for (const auto& [name, tensor] : graph.initializers)
    graph.values.try_emplace(name, ValueInfo::from_shape(name, tensor.dtype(), tensor.shape()));

  for (int i = 0; i < proto.node_size(); ++i)
    graph.add_node(convert_node(*proto.mutable_node(i), static_cast<std::size_t>(i), opset_imports));
  return graph;
}

Node GraphConverter::convert_node(onnx::NodeProto& proto, std::size_t index,
                                  const std::map<std::string, std::int64_t>& opsets) {
  Node node;
  node.name = names_.name_for(proto, index);
  node.op_type = proto.op_type();
  node.domain = normalized_domain(proto.domain());
  node.inputs.assign(proto.input().begin(), proto.input().end());
  node.outputs.assign(proto.output().begin(), proto.output().end());
  node.provenance = {node.name};
  for (auto& attribute : *proto.mutable_attribute())
    node.attributes.set(attribute.name(), convert_attribute(attribute, node, opsets));
  return node;
}

AttributeValue GraphConverter::convert_attribute(onnx::AttributeProto& attribute, const Node& node,
                                                 const std::map<std::string, std::int64_t>& opsets) {
  const std::string label = "attribute '" + attribute.name() + "' of " + node.describe();
  switch (effective_type(attribute)) {
    case onnx::AttributeProto::INT: return attribute.i();
    case onnx::AttributeProto::FLOAT: return attribute.f();
    case onnx::AttributeProto::STRING: return attribute.s();
    case onnx::AttributeProto::TENSOR: return tensor_from_proto(*attribute.mutable_t(), label, model_path_);
    case onnx::AttributeProto::GRAPH: return std::make_shared<Graph>(convert(*attribute.mutable_g(), opsets));
    case onnx::AttributeProto::INTS: return std::vector<std::int64_t>(attribute.ints().begin(), attribute.ints().end());
    case onnx::AttributeProto::FLOATS: return std::vector<float>(attribute.floats().begin(), attribute.floats().end());
    case onnx::AttributeProto::STRINGS:
      return std::vector<std::string>(attribute.strings().begin(), attribute.strings().end());
    case onnx::AttributeProto::TENSORS: {
      std::vector<Tensor> tensors;
      for (auto& tensor : *attribute.mutable_tensors()) tensors.push_back(tensor_from_proto(tensor, label, model_path_));
      return tensors;
    }
    case onnx::AttributeProto::GRAPHS: {
      std::vector<std::shared_ptr<Graph>> graphs;
      for (auto& graph : *attribute.mutable_graphs()) graphs.push_back(std::make_shared<Graph>(convert(graph, opsets)));
      return graphs;
    }
    default:
      throw Error(ErrorCode::InvalidOperator,
                  model_label(model_path_) + ": " + label + " is of kind " +
                      onnx::AttributeProto::AttributeType_Name(effective_type(attribute)) +
                      ", which asc does not support");
  }
}

}  // namespace asc::parser_onnx
