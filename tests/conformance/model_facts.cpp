#include "model_facts.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <stdexcept>

namespace asc::conformance {
namespace {

void note_type(const onnx::TypeProto& type, ModelFacts& facts) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      if (type.tensor_type().elem_type() == onnx::TensorProto::STRING) facts.value_kinds.insert("string");
      break;
    case onnx::TypeProto::kSequenceType:
      facts.value_kinds.insert("sequence");
      note_type(type.sequence_type().elem_type(), facts);
      break;
    case onnx::TypeProto::kMapType:
      facts.value_kinds.insert("map");
      break;
    case onnx::TypeProto::kOptionalType:
      facts.value_kinds.insert("optional");
      note_type(type.optional_type().elem_type(), facts);
      break;
    case onnx::TypeProto::kSparseTensorType:
      facts.value_kinds.insert("sparse_tensor");
      break;
    default:
      break;
  }
}

void note_tensor(const onnx::TensorProto& tensor, ModelFacts& facts) {
  if (tensor.data_type() == onnx::TensorProto::STRING) facts.value_kinds.insert("string");
}

void walk_graph(const onnx::GraphProto& graph, ModelFacts& facts);

void walk_node(const onnx::NodeProto& node, ModelFacts& facts) {
  facts.op_types.insert(node.op_type());
  facts.domains.insert(node.domain() == "ai.onnx" ? "" : node.domain());
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.has_t()) note_tensor(attribute.t(), facts);
    for (const onnx::TensorProto& tensor : attribute.tensors()) note_tensor(tensor, facts);
    if (attribute.has_sparse_tensor() || attribute.sparse_tensors_size() > 0)
      facts.value_kinds.insert("sparse_tensor");
    if (node.op_type() == "Constant" &&
        (attribute.name() == "value_string" || attribute.name() == "value_strings"))
      facts.value_kinds.insert("string");
    if (attribute.has_g()) walk_graph(attribute.g(), facts);
    for (const onnx::GraphProto& graph : attribute.graphs()) walk_graph(graph, facts);
  }
}

void walk_graph(const onnx::GraphProto& graph, ModelFacts& facts) {
  for (const auto& value : graph.input()) note_type(value.type(), facts);
  for (const auto& value : graph.output()) note_type(value.type(), facts);
  for (const auto& value : graph.value_info()) note_type(value.type(), facts);
  for (const auto& tensor : graph.initializer()) note_tensor(tensor, facts);
  if (graph.sparse_initializer_size() > 0) facts.value_kinds.insert("sparse_tensor");
  for (const auto& node : graph.node()) walk_node(node, facts);
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

ModelFacts read_model_facts(const std::filesystem::path& model) {
  std::ifstream in(model, std::ios::binary);
  onnx::ModelProto proto;
  if (!in || !proto.ParseFromIstream(&in))
    throw std::runtime_error("cannot read ONNX model " + model.string());
  ModelFacts facts;
  walk_graph(proto.graph(), facts);
  for (const auto& node : proto.graph().node())
    if (node.op_type() != "Constant" &&
        std::find(facts.main_ops.begin(), facts.main_ops.end(), node.op_type()) == facts.main_ops.end())
      facts.main_ops.push_back(node.op_type());
  if (facts.main_ops.empty() && proto.graph().node_size() > 0) facts.main_ops.push_back("Constant");
  return facts;
}

std::string operator_label(const ModelFacts& facts, const std::string& test_name) {
  if (facts.main_ops.empty()) return "(no nodes)";
  if (facts.main_ops.size() == 1) return facts.main_ops.front();

  std::string collapsed = lower(test_name.rfind("test_", 0) == 0 ? test_name.substr(5) : test_name);
  collapsed.erase(std::remove(collapsed.begin(), collapsed.end(), '_'), collapsed.end());
  const std::string* best = nullptr;
  for (const std::string& op : facts.main_ops)
    if (collapsed.rfind(lower(op), 0) == 0 && (best == nullptr || op.size() > best->size())) best = &op;
  if (best != nullptr) return *best;

  std::vector<std::string> sorted = facts.main_ops;
  std::sort(sorted.begin(), sorted.end());
  std::string joined;
  for (const std::string& op : sorted) joined += (joined.empty() ? "" : "+") + op;
  return joined;
}

}  // namespace asc::conformance
