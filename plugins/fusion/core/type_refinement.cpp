#include "core/type_refinement.hpp"

#include <optional>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>

#include "core/graph_edits.hpp"

namespace asc::fusion {
namespace {

int knowledge(const Dim& d) { return d.is_static() ? 2 : (d.symbol.empty() ? 0 : 1); }

}  // namespace

bool merge_value_info(ValueInfo& current, const ValueInfo& inferred) {
  bool changed = false;
  if (current.dtype == DType::Undefined && inferred.dtype != DType::Undefined) {
    current.dtype = inferred.dtype;
    changed = true;
  }
  if (!inferred.shape) return changed;
  if (!current.shape) {
    current.shape = inferred.shape;
    return true;
  }
  if (current.shape->size() != inferred.shape->size()) return changed;
  for (std::size_t i = 0; i < current.shape->size(); ++i) {
    Dim& old = (*current.shape)[i];
    const Dim& fresh = (*inferred.shape)[i];
    if (knowledge(fresh) > knowledge(old)) {
      old = fresh;
      changed = true;
    }
  }
  return changed;
}

bool refine_output_types(Graph& graph, const Node& node, const OpRegistry& ops) {
  const OpDefinition* definition = find_op(ops, graph, node);
  if (definition == nullptr || !definition->infer) return false;
  std::vector<ValueInfo> input_infos;
  input_infos.reserve(node.inputs.size());
  for (const auto& input : node.inputs)
    input_infos.push_back(ValueInfo{input, value_dtype(graph, input), value_dims(graph, input)});
  std::vector<const ValueInfo*> inputs;
  std::vector<const Tensor*> values;
  for (std::size_t i = 0; i < node.inputs.size(); ++i) {
    const bool present = !node.inputs[i].empty();
    inputs.push_back(present ? &input_infos[i] : nullptr);
    const auto init = graph.initializers.find(node.inputs[i]);
    values.push_back(present && init != graph.initializers.end() ? &init->second : nullptr);
  }
  std::vector<ValueInfo> outputs;
  for (const auto& output : node.outputs) outputs.push_back(ValueInfo{output, DType::Undefined, std::nullopt});
  InferenceContext context{node, graph.opset(node.domain), inputs, values, std::move(outputs)};
  try {
    definition->infer(context);
  } catch (const Error& e) {
    log_debug("type refinement: " + node.describe() + ": " + e.what());
    return false;
  } catch (const std::exception& e) {
    // Not a coded error: a bug in the operator's plugin, named with the node.
    throw Error(ErrorCode::ShapeInferenceFailed, node.describe() + ": shape inference of operator plugin '" +
                                                     definition->plugin + "' threw: " + e.what());
  }
  bool changed = false;
  for (std::size_t i = 0; i < node.outputs.size(); ++i) {
    const std::string& name = node.outputs[i];
    if (name.empty()) continue;
    auto [it, inserted] = graph.values.try_emplace(name, ValueInfo{name, DType::Undefined, std::nullopt});
    changed = merge_value_info(it->second, context.outputs[i]) || changed || inserted;
  }
  return changed;
}

}  // namespace asc::fusion
