#include "om/om_atc_json.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <type_traits>
#include <variant>

namespace asc::npusim {
namespace {

using Json = nlohmann::ordered_json;

// GE's ListValueType (ge_ir.proto): the element type of a "list" attribute value.
constexpr int kListString = 1, kListInt = 2, kListFloat = 3;

// GE's data type names (DT_*).
std::string ge_dtype(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "DT_FLOAT";
    case DType::Float16: return "DT_FLOAT16";
    case DType::BFloat16: return "DT_BF16";
    case DType::Float64: return "DT_DOUBLE";
    case DType::Int8: return "DT_INT8";
    case DType::UInt8: return "DT_UINT8";
    case DType::Int16: return "DT_INT16";
    case DType::UInt16: return "DT_UINT16";
    case DType::Int32: return "DT_INT32";
    case DType::UInt32: return "DT_UINT32";
    case DType::Int64: return "DT_INT64";
    case DType::UInt64: return "DT_UINT64";
    case DType::Bool: return "DT_BOOL";
    default: return "DT_UNDEFINED";
  }
}

Json attr(const std::string& key, Json value) { return {{"key", key}, {"value", std::move(value)}}; }
Json string_list(const std::vector<std::string>& items) { return {{"list", {{"val_type", kListString}, {"s", items}}}}; }
Json int_list(const std::vector<std::int64_t>& items) { return {{"list", {{"val_type", kListInt}, {"i", items}}}}; }

// ONNX attributes as GE attribute values; tensors and subgraphs have no place here and are left out.
std::optional<Json> attribute_value(const AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> std::optional<Json> {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t>) return Json{{"i", v}};
        else if constexpr (std::is_same_v<T, float>) return Json{{"f", v}};
        else if constexpr (std::is_same_v<T, std::string>) return Json{{"s", v}};
        else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) return int_list(v);
        else if constexpr (std::is_same_v<T, std::vector<float>>)
          return Json{{"list", {{"val_type", kListFloat}, {"f", v}}}};
        else if constexpr (std::is_same_v<T, std::vector<std::string>>) return string_list(v);
        else return std::nullopt;
      },
      value);
}

struct Descriptors {
  std::map<std::string, const ValuePlacement*> placements;  // by value name (first profile)
  std::map<std::string, std::pair<const Node*, int>> producers;
  const Graph* graph = nullptr;

  // The value as the device holds it (placement), else as the graph declares it.
  Json desc(const std::string& value) const {
    Shape logical;
    DType dtype = DType::Undefined;
    if (const ValueInfo* info = graph->value_info(value); info != nullptr) {
      dtype = info->dtype;
      if (info->shape)
        for (const Dim& dim : *info->shape) logical.push_back(dim.is_static() ? dim.value : -1);
    }
    std::string layout = logical.size() == 4 ? "NCHW" : "ND";
    const std::string origin_format = layout;
    Shape device = logical;
    if (const auto found = placements.find(value); found != placements.end()) {
      dtype = found->second->dtype;
      layout = std::string(format_name(found->second->format));
      if (!found->second->shape.empty()) logical = found->second->shape;
      device = found->second->device_shape.empty() ? logical : found->second->device_shape;
    }
    return {{"name", value},
            {"dtype", ge_dtype(dtype)},
            {"shape", {{"dim", device}}},
            {"layout", layout},
            {"attr", Json::array({attr("origin_format", {{"s", origin_format}}), attr("origin_shape", int_list(logical))})}};
  }

  // "producer:index" (GE's edge notation); graph inputs and weights are their own ops' output 0.
  std::string source(const std::string& value) const {
    const auto found = producers.find(value);
    return found == producers.end() ? value + ":0"
                                    : found->second.first->name + ":" + std::to_string(found->second.second);
  }
};

Json data_op(const Descriptors& d, const std::string& name, const char* type, std::size_t index) {
  Json op = {{"name", name},
             {"type", type},
             {"attr", Json::array({attr("_datadump_original_op_names", string_list({name}))})},
             {"output_desc", Json::array({d.desc(name)})}};
  if (std::string(type) == "Data") op["attr"].push_back(attr("index", {{"i", static_cast<std::int64_t>(index)}}));
  return op;
}

Json node_op(const Descriptors& d, const Node& node) {
  Json attrs = Json::array({attr("_datadump_original_op_names", string_list(node.provenance))});
  for (const auto& [name, value] : node.attributes.all())
    if (const auto converted = attribute_value(value)) attrs.push_back(attr(name, *converted));
  Json inputs = Json::array(), input_desc = Json::array(), output_desc = Json::array();
  for (const std::string& input : node.inputs) {
    if (input.empty()) continue;
    inputs.push_back(d.source(input));
    input_desc.push_back(d.desc(input));
  }
  // The last original node stands for the fused op's outputs (msit compares them there).
  const std::string origin = node.provenance.empty() ? node.name : node.provenance.back();
  for (std::size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i].empty()) continue;
    Json desc = d.desc(node.outputs[i]);
    desc["attr"].push_back(attr("_datadump_origin_name", {{"s", origin}}));
    desc["attr"].push_back(attr("_datadump_origin_output_index", {{"i", static_cast<std::int64_t>(i)}}));
    desc["attr"].push_back(attr("_datadump_origin_format", {{"s", desc["attr"][0]["value"]["s"]}}));
    output_desc.push_back(std::move(desc));
  }
  return {{"name", node.name},       {"type", node.op_type},         {"input", inputs},
          {"attr", attrs},           {"input_desc", input_desc},     {"output_desc", output_desc}};
}

}  // namespace

nlohmann::ordered_json om_to_atc_json(const CompiledModel& model) {
  const Graph& graph = model.graph;
  Descriptors d;
  d.graph = &graph;
  if (!model.profiles.empty())
    for (const ValuePlacement& placement : model.profiles.front().values) d.placements[placement.value] = &placement;
  for (const Node* node : graph.nodes())
    for (std::size_t i = 0; i < node->outputs.size(); ++i)
      if (!node->outputs[i].empty()) d.producers[node->outputs[i]] = {node, static_cast<int>(i)};

  Json ops = Json::array();
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) ops.push_back(data_op(d, graph.inputs[i], "Data", i));
  for (const auto& [name, tensor] : graph.initializers) ops.push_back(data_op(d, name, "Const", 0));
  for (const Node* node : graph.nodes()) ops.push_back(node_op(d, *node));
  Json net_output = {{"name", "NetOutput"}, {"type", "NetOutput"}, {"input", Json::array()},
                     {"attr", Json::array({attr("_datadump_original_op_names", string_list({}))})},
                     {"input_desc", Json::array()}};
  for (const std::string& output : graph.outputs) {
    net_output["input"].push_back(d.source(output));
    net_output["input_desc"].push_back(d.desc(output));
  }
  ops.push_back(std::move(net_output));
  const std::string name =
      model.source_model.empty() ? graph.name : std::filesystem::path(model.source_model).stem().string();
  return {{"name", name},
          {"version", 1},
          {"attr", Json::array({attr("soc_version", {{"s", model.soc_version}}),
                                attr("precision_mode", {{"s", model.options.precision_mode}})})},
          {"graph", Json::array({{{"name", graph.name},
                                  {"input", graph.inputs},
                                  {"output", graph.outputs},
                                  {"op", ops}}})}};
}

}  // namespace asc::npusim
