// om_to_json (declared in om_file.hpp): the model as `atc --mode=1` users read it.
#include <map>
#include <vector>

#include "om/om_file.hpp"
#include "om/om_header.hpp"
#include "om/weight_storage.hpp"

namespace asc::npusim {
namespace {

using Json = nlohmann::ordered_json;

std::string name_of(DType dtype) { return std::string(dtype_name(dtype)); }
std::string name_of(Format format) { return std::string(format_name(format)); }

std::string om_region_name(ValuePlacement::Region region) {
  switch (region) {
    case ValuePlacement::Region::Input: return "input";
    case ValuePlacement::Region::Output: return "output";
    case ValuePlacement::Region::Activation: return "activation";
    case ValuePlacement::Region::Weight: return "weight";
  }
  return "unknown";
}

// Static dims as numbers, symbolic ones by name, unknown ones as -1; null for unknown rank.
Json shape_json(const std::optional<std::vector<Dim>>& shape) {
  if (!shape) return nullptr;
  Json dims = Json::array();
  for (const Dim& dim : *shape) {
    if (dim.is_static() || dim.symbol.empty()) dims.push_back(dim.value);
    else dims.push_back(dim.symbol);
  }
  return dims;
}

Json value_json(const Graph& graph, const std::string& name) {
  const ValueInfo* info = graph.value_info(name);
  return {{"name", name},
          {"dtype", name_of(info ? info->dtype : DType::Undefined)},
          {"shape", info ? shape_json(info->shape) : Json(nullptr)}};
}

Json options_json(const CompileOptions& options) {
  return {{"soc_version", options.soc_version},
          {"soc_dir", options.soc_dir},
          {"precision_mode", options.precision_mode},
          {"op_select_implmode", options.op_select_implmode},
          {"optypelist_for_implmode", options.optypelist_for_implmode},
          {"keep_dtype_nodes", options.keep_dtype_nodes},
          {"output_type", options.output_type},
          {"output_type_per_output", options.output_type_per_output},
          {"input_format", options.input_format},
          {"input_fp16_nodes", options.input_fp16_nodes},
          {"dynamic_batch_size", options.dynamic_batch_size},
          {"dynamic_image_size", options.dynamic_image_size},
          {"dynamic_dims", options.dynamic_dims},
          {"buffer_optimize", options.buffer_optimize},
          {"enable_small_channel", options.enable_small_channel},
          {"enable_l2dynamic", options.enable_l2dynamic},
          {"disable_reuse_memory", options.disable_reuse_memory},
          {"debug_dir", options.debug_dir},
          {"op_lib_paths", options.op_lib_paths}};
}

Json header_json(const CompiledModel& model) {
  return {{"format_version", kOmFormatVersion},
          {"soc_version", model.soc_version},
          {"framework", model.framework},
          {"source_model", model.source_model},
          {"command_line", model.options.command_line},
          {"dynamic_kind", model.dynamic_kind.empty() ? "static" : model.dynamic_kind},
          {"compile_options", options_json(model.options)}};
}

Json graph_json(const Graph& graph) {
  Json opsets = Json::object();
  for (const auto& [domain, version] : graph.opset_imports) opsets[domain.empty() ? "ai.onnx" : domain] = version;
  Json inputs = Json::array(), outputs = Json::array();
  for (const std::string& name : graph.inputs) inputs.push_back(value_json(graph, name));
  for (const std::string& name : graph.outputs) outputs.push_back(value_json(graph, name));
  return {{"name", graph.name},
          {"opset_imports", opsets},
          {"inputs", inputs},
          {"outputs", outputs},
          {"metadata", graph.metadata}};
}

Json tensor_summary(const Tensor& tensor) {
  if (!tensor.defined()) return {{"tensor", nullptr}};
  return {{"tensor", {{"dtype", name_of(tensor.dtype())}, {"shape", tensor.shape()}}}};
}

Json graph_summary(const std::shared_ptr<Graph>& graph) {
  if (!graph) return {{"graph", nullptr}};
  return {{"graph", {{"name", graph->name}, {"nodes", graph->node_count()}}}};
}

// Scalars and lists as they are; tensors and subgraphs summarized (no data).
Json attribute_json(const AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> Json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Tensor>) return tensor_summary(v);
        else if constexpr (std::is_same_v<T, std::shared_ptr<Graph>>) return graph_summary(v);
        else if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
          Json list = Json::array();
          for (const Tensor& t : v) list.push_back(tensor_summary(t));
          return list;
        } else if constexpr (std::is_same_v<T, std::vector<std::shared_ptr<Graph>>>) {
          Json list = Json::array();
          for (const auto& g : v) list.push_back(graph_summary(g));
          return list;
        } else return Json(v);
      },
      value);
}

Json formats_json(const std::vector<Format>& formats) {
  Json names = Json::array();
  for (const Format format : formats) names.push_back(name_of(format));
  return names;
}

Json tiling_json(const Tiling& t) {
  return {{"block_dim", t.block_dim},
          {"batch", t.batch},
          {"m", t.m},
          {"k", t.k},
          {"n", t.n},
          {"block_m", t.block_m},
          {"block_n", t.block_n},
          {"base_m", t.base_m},
          {"base_k", t.base_k},
          {"base_n", t.base_n},
          {"l1_k", t.l1_k},
          {"elements", t.elements},
          {"ub_tile_elements", t.ub_tile_elements},
          {"tiles_per_block", t.tiles_per_block},
          {"double_buffer", t.double_buffer},
          {"l0a_bytes", t.l0a_bytes},
          {"l0b_bytes", t.l0b_bytes},
          {"l0c_bytes", t.l0c_bytes},
          {"l1_bytes", t.l1_bytes},
          {"ub_bytes", t.ub_bytes}};
}

Json task_json(const std::string& profile, const CompiledTask& task) {
  return {{"profile", profile},
          {"unit", std::string(compute_unit_name(task.unit))},
          {"task_type", task.task_type},
          {"compute_dtype", name_of(task.compute_dtype)},
          {"impl_mode", task.impl_mode},
          {"input_formats", formats_json(task.input_formats)},
          {"output_formats", formats_json(task.output_formats)},
          {"tiling", tiling_json(task.tiling)},
          {"workspace_bytes", task.workspace_bytes}};
}

Json ops_json(const CompiledModel& model) {
  std::map<std::string, Json> tasks_by_node;
  for (const CompiledProfile& profile : model.profiles)
    for (const CompiledTask& task : profile.tasks) tasks_by_node[task.node].push_back(task_json(profile.label, task));
  Json ops = Json::array();
  for (const Node* node : model.graph.nodes()) {
    Json attributes = Json::object();
    for (const auto& [name, value] : node->attributes.all()) attributes[name] = attribute_json(value);
    const auto tasks = tasks_by_node.find(node->name);
    ops.push_back({{"name", node->name},
                   {"type", node->op_type},
                   {"domain", node->domain},
                   {"inputs", node->inputs},
                   {"outputs", node->outputs},
                   {"original_op_names", node->provenance},
                   {"attributes", attributes},
                   {"tasks", tasks != tasks_by_node.end() ? tasks->second : Json::array()}});
  }
  return ops;
}

Json memory_json(const MemoryPlan& memory) {
  return {{"reuse", memory.reuse},
          {"activation_bytes", memory.activation_bytes},
          {"activation_bytes_no_reuse", memory.activation_bytes_no_reuse},
          {"weight_bytes", memory.weight_bytes},
          {"workspace_bytes", memory.workspace_bytes},
          {"input_bytes", memory.input_bytes},
          {"output_bytes", memory.output_bytes},
          {"total_bytes", memory.total_bytes()}};
}

Json placement_json(const ValuePlacement& p) {
  return {{"value", p.value},
          {"region", om_region_name(p.region)},
          {"dtype", name_of(p.dtype)},
          {"format", name_of(p.format)},
          {"shape", p.shape},
          {"device_shape", p.device_shape},
          {"offset", p.offset},
          {"bytes", p.bytes},
          {"first_task", p.first_task},
          {"last_task", p.last_task}};
}

Json profiles_json(const CompiledModel& model) {
  Json profiles = Json::array();
  for (const CompiledProfile& profile : model.profiles) {
    Json values = Json::array();
    for (const ValuePlacement& placement : profile.values) values.push_back(placement_json(placement));
    profiles.push_back({{"label", profile.label},
                        {"input_shapes", profile.input_shapes},
                        {"memory", memory_json(profile.memory)},
                        {"values", values}});
  }
  return profiles;
}

// As stored in the .om: at the device dtype where the weight is kept narrower than on the host.
Json weights_json(const CompiledModel& model) {
  Json weights = Json::array();
  for (const auto& [name, stored] : weight_storage_dtypes(model)) {
    const Tensor& tensor = model.graph.initializers.at(name);
    weights.push_back({{"name", name},
                       {"dtype", name_of(stored)},
                       {"host_dtype", name_of(tensor.dtype())},
                       {"shape", tensor.shape()},
                       {"format", name_of(tensor.format())},
                       {"bytes", tensor.numel() * static_cast<std::int64_t>(dtype_size(stored))}});
  }
  return weights;
}

}  // namespace

nlohmann::ordered_json om_to_json(const CompiledModel& model) {
  return {{"header", header_json(model)},
          {"graph", graph_json(model.graph)},
          {"ops", ops_json(model)},
          {"profiles", profiles_json(model)},
          {"weights", weights_json(model)}};
}

}  // namespace asc::npusim
