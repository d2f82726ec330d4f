#include "compile_model.hpp"

#include <asc/sdk/error.hpp>
#include <set>

#include "dynamic_profiles.hpp"
#include "kernel_target.hpp"
#include "layout.hpp"
#include "memory_plan.hpp"
#include "op_info.hpp"
#include "precision_pass.hpp"
#include "soc_config.hpp"
#include "static_shapes.hpp"
#include "task_input.hpp"
#include "tiling.hpp"

namespace asc::npusim {
namespace {

std::vector<const ValueInfo*> infos_of(const std::vector<std::string>& names,
                                       const std::unordered_map<std::string, ValueInfo>& infos) {
  std::vector<const ValueInfo*> pointers;
  for (const std::string& name : names) pointers.push_back(name.empty() ? nullptr : &infos.at(name));
  return pointers;
}

// Each node's compute unit, from its cost facts at the first profile's shapes.
std::map<std::string, ComputeUnit> compute_units(const Graph& graph, const OpRegistry& ops,
                                                 const std::unordered_map<std::string, ValueInfo>& infos) {
  std::map<std::string, ComputeUnit> units;
  for (const Node* node : graph.nodes()) {
    const OpDefinition* op = find_op(ops, graph, *node);
    units[node->name] = op != nullptr && op->cost
                            ? op->cost(CostContext{*node, infos_of(node->inputs, infos), infos_of(node->outputs, infos)}).unit
                            : ComputeUnit::Vector;
  }
  return units;
}

// Values the graph gives no type (hand-built graphs, values a pass added) get the inferred one,
// so that the precision pass knows every value's host dtype. Shapes only for a static model: a
// dynamic one's first profile is not the general shape.
void declare_missing_types(Graph& graph, const std::unordered_map<std::string, ValueInfo>& inferred, bool is_static) {
  for (const auto& [name, info] : inferred) {
    if (graph.is_initializer(name)) continue;
    ValueInfo& declared = graph.values.try_emplace(name, ValueInfo{name, DType::Undefined, std::nullopt}).first->second;
    if (declared.dtype == DType::Undefined) declared.dtype = info.dtype;
    if (!declared.shape && is_static) declared.shape = info.shape;
  }
}

std::string task_type(const NodePrecision& precision, const SocConfig& soc) {
  if (precision.unit == ComputeUnit::None) return "";
  if (precision.engine == Engine::AiCpu || precision.unit == ComputeUnit::Scalar) return "AI_CPU";
  if (precision.unit == ComputeUnit::Cube) return "AI_CORE";
  return soc.split ? "AI_VECTOR_CORE" : "AI_CORE";
}

class ProfileCompiler {
 public:
  ProfileCompiler(const CompiledModel& model, const OpRegistry& ops, const SocConfig& soc, const OpInfoTable& op_info,
                  const PrecisionResult& precision)
      : model_(model), ops_(ops), soc_(soc), op_info_(op_info), precision_(precision) {}

  CompiledProfile compile(const ProfileShapes& shapes) const {
    const Graph& graph = model_.graph;
    CompiledProfile profile;
    profile.label = shapes.label;
    profile.input_shapes = shapes.input_shapes;
    const auto infos = infer_static_values(graph, ops_, shapes.input_shapes, shapes.label);
    const auto layouts = choose_layouts(graph, infos, precision_, op_info_, model_.options);

    const auto nodes = graph.nodes();
    std::map<std::string, int> producer, last_reader;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const Node& node = *nodes[i];
      const NodePrecision& decision = precision_.nodes.at(node.name);
      CompiledTask task;
      task.node = node.name;
      task.unit = decision.unit;
      task.task_type = task_type(decision, soc_);
      task.compute_dtype = decision.compute_dtype;
      task.impl_mode = decision.impl_mode;
      for (const std::string& name : node.inputs) {
        task.input_formats.push_back(name.empty() ? Format::ND : layouts.at(name).format);
        if (!name.empty()) last_reader[name] = static_cast<int>(i);
      }
      for (const std::string& name : node.outputs) {
        task.output_formats.push_back(name.empty() ? Format::ND : layouts.at(name).format);
        if (!name.empty()) producer[name] = static_cast<int>(i);
      }
      profile.tasks.push_back(std::move(task));
    }

    auto place = [&](const std::string& name, ValuePlacement::Region region) {
      ValuePlacement value;
      value.value = name;
      value.region = region;
      value.dtype = precision_.device_dtypes.count(name) != 0 ? precision_.device_dtypes.at(name) : infos.at(name).dtype;
      value.format = layouts.at(name).format;
      value.shape = infos.at(name).static_shape();
      value.device_shape = layouts.at(name).device_shape;
      value.bytes = num_elements(value.device_shape) * static_cast<std::int64_t>(dtype_size(value.dtype));
      if (region == ValuePlacement::Region::Activation) {
        value.first_task = producer.at(name);
        value.last_task = last_reader.count(name) != 0 ? last_reader.at(name) : value.first_task;
      }
      profile.values.push_back(std::move(value));
    };
    const std::set<std::string> outputs(graph.outputs.begin(), graph.outputs.end());
    for (const std::string& name : graph.inputs) place(name, ValuePlacement::Region::Input);
    std::set<std::string> weights;
    for (const Node* node : nodes)
      for (const std::string& name : node->inputs)
        if (graph.is_initializer(name)) weights.insert(name);
    for (const std::string& name : weights) place(name, ValuePlacement::Region::Weight);
    for (const Node* node : nodes)
      for (const std::string& name : node->outputs)
        if (!name.empty())
          place(name, outputs.count(name) != 0 ? ValuePlacement::Region::Output : ValuePlacement::Region::Activation);

    const std::vector<TaskInput> task_inputs = profile_task_inputs(graph, ops_, profile, soc_);
    std::int64_t workspace = 0;
    for (std::size_t i = 0; i < profile.tasks.size(); ++i) {
      CompiledTask& task = profile.tasks[i];
      if (task.unit == ComputeUnit::None) continue;
      if (task_inputs[i].scheduled) {
        task.tiling = *task_inputs[i].scheduled;  // the operator scheduled itself (the TBE DSL)
        check_tiling_fits(soc_, task.tiling, task.node);
      } else {
        task.tiling = choose_tiling(soc_, task_inputs[i]);
      }
      workspace = std::max(workspace, task.workspace_bytes);
    }
    profile.memory = plan_memory(profile.values, aliases(profile), !model_.options.disable_reuse_memory, workspace);
    check_device_memory(profile, soc_);
    return profile;
  }

 private:
  // Metadata tasks that reinterpret an activation without changing its bytes (Reshape, Flatten,
  // Squeeze, ...) write into the same buffer.
  std::map<std::string, std::string> aliases(const CompiledProfile& profile) const {
    std::map<std::string, const ValuePlacement*> placements;
    for (const ValuePlacement& value : profile.values) placements[value.value] = &value;
    std::map<std::string, std::string> result;
    const auto nodes = model_.graph.nodes();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const Node& node = *nodes[i];
      if (profile.tasks[i].unit != ComputeUnit::None || node.inputs.empty() || node.outputs.size() != 1 ||
          node.inputs[0].empty())
        continue;
      const ValuePlacement* in = placements.at(node.inputs[0]);
      const ValuePlacement* out = placements.at(node.outputs[0]);
      if (in->region == ValuePlacement::Region::Activation && out->region == ValuePlacement::Region::Activation &&
          in->bytes == out->bytes)
        result[out->value] = in->value;
    }
    return result;
  }

  const CompiledModel& model_;
  const OpRegistry& ops_;
  const SocConfig& soc_;
  const OpInfoTable& op_info_;
  const PrecisionResult& precision_;
};

}  // namespace

CompiledModel compile_model(const Graph& graph, const OpRegistry& ops, const CompileOptions& options) {
  if (options.soc_version.empty())
    throw Error(ErrorCode::ConfigMissingKey, "compiling for the NPU needs soc_version (e.g. Ascend310P3)");
  const std::filesystem::path soc_dir = soc_directory(options.soc_dir);
  const SocConfig soc = load_soc(options.soc_version, soc_dir);
  OpInfoTable op_info = load_op_info(soc.name, soc_dir);
  op_info.add_plugin_ops(ops);
  check_all_ops_supported(ops, graph);

  CompiledModel model;
  model.soc_version = soc.name;
  model.options = options;
  model.graph = graph;
  const DynamicProfiles profiles = dynamic_profiles(graph, options);
  model.dynamic_kind = profiles.kind;

  const auto first_infos = infer_static_values(model.graph, ops, profiles.profiles.front().input_shapes,
                                               profiles.profiles.front().label);
  declare_missing_types(model.graph, first_infos, profiles.kind.empty());
  const PrecisionResult precision = apply_precision(model.graph, op_info, options, compute_units(model.graph, ops, first_infos));
  const ProfileCompiler compiler(model, ops, soc, op_info, precision);
  for (const ProfileShapes& shapes : profiles.profiles) model.profiles.push_back(compiler.compile(shapes));
  return model;
}

}  // namespace asc::npusim
