#include "passes/constant_folding.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>

#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/type_refinement.hpp"

namespace asc::fusion {
namespace {

bool all_inputs_constant(const Graph& graph, const Node& node) {
  return std::all_of(node.inputs.begin(), node.inputs.end(),
                     [&](const std::string& input) { return input.empty() || graph.is_initializer(input); });
}

// Shape (with opset 15's start/end) and Size need only the input's static shape.
std::optional<Tensor> fold_shape_query(const Graph& graph, const Node& node) {
  if (!is_default_domain(node) || node.inputs.empty() || (node.op_type != "Shape" && node.op_type != "Size"))
    return std::nullopt;
  const std::optional<Shape> shape = value_static_shape(graph, node.inputs[0]);
  if (!shape) return std::nullopt;
  if (node.op_type == "Size") return Tensor::scalar<std::int64_t>(num_elements(*shape));
  const auto rank = static_cast<std::int64_t>(shape->size());
  auto clamp = [&](std::int64_t index) { return std::clamp(index < 0 ? index + rank : index, std::int64_t{0}, rank); };
  const std::int64_t start = clamp(node.attributes.get_int("start", 0));
  const std::int64_t end = std::max(start, clamp(node.attributes.get_int("end", rank)));
  const std::vector<std::int64_t> dims(shape->begin() + start, shape->begin() + end);
  return Tensor::from_vector<std::int64_t>({end - start}, dims);
}

bool too_large(const Graph& graph, const Node& node) {
  for (const auto& output : node.outputs) {
    const std::optional<Shape> shape = value_static_shape(graph, output);
    const DType dtype = value_dtype(graph, output);
    if (shape && dtype != DType::Undefined &&
        static_cast<std::size_t>(num_elements(*shape)) * dtype_size(dtype) > ConstantFolding::kMaxFoldedBytes)
      return true;
  }
  return false;
}

// The node's results from its kernel; nullopt when it has none or fails (the node then stays,
// and a run reports the failure where it happens).
std::optional<std::vector<Tensor>> evaluate(const Graph& graph, const Node& node, const OpRegistry& ops) {
  const OpDefinition* definition = find_op(ops, graph, node);
  if (definition == nullptr || !definition->compute) return std::nullopt;
  std::vector<const Tensor*> inputs;
  for (const auto& input : node.inputs) inputs.push_back(input.empty() ? nullptr : &graph.initializers.at(input));
  KernelContext context{node, graph.opset(node.domain), inputs, std::vector<Tensor>(node.outputs.size()), 1};
  try {
    definition->compute(context);
  } catch (const Error& e) {
    log_debug("ConstantFolding: left " + node.describe() + " unfolded: " + e.what());
    return std::nullopt;
  }
  for (auto& output : context.outputs) output = output.contiguous();
  return std::move(context.outputs);
}

bool foldable(const Graph& graph, const Node& node) {
  if (is_nondeterministic(node) || has_subgraph(node)) return false;
  return std::none_of(node.outputs.begin(), node.outputs.end(),
                      [&](const std::string& output) { return graph.is_graph_output(output); });
}

// Every named output computed and small enough to keep as a constant.
bool usable(const Node& node, const std::vector<Tensor>& results) {
  for (std::size_t i = 0; i < node.outputs.size(); ++i)
    if (!node.outputs[i].empty() && (!results[i].defined() || results[i].nbytes() > ConstantFolding::kMaxFoldedBytes))
      return false;
  return true;
}

// The node's results when it folds; counts a match for every node that qualifies.
std::optional<std::vector<Tensor>> fold(const Graph& graph, const Node& node, const OpRegistry& ops, PassResult& result) {
  if (!foldable(graph, node)) return std::nullopt;
  std::optional<std::vector<Tensor>> results;
  if (std::optional<Tensor> shape = fold_shape_query(graph, node)) results = std::vector<Tensor>{std::move(*shape)};
  else if (!all_inputs_constant(graph, node)) return std::nullopt;
  else if (!too_large(graph, node)) results = evaluate(graph, node, ops);
  ++result.match_times;
  if (results && !usable(node, *results)) results.reset();
  return results;
}

}  // namespace

PassResult ConstantFolding::run(Graph& graph, const PassContext& context) const {
  PassResult result;
  const std::vector<Node*> snapshot(graph.nodes().begin(), graph.nodes().end());
  for (Node* node : snapshot) {
    std::optional<std::vector<Tensor>> results = fold(graph, *node, context.ops, result);
    if (!results) {
      // Kept nodes get their types re-inferred, so Shape nodes further down can fold.
      refine_output_types(graph, *node, context.ops);
      continue;
    }
    for (std::size_t i = 0; i < node->outputs.size(); ++i) {
      const std::string& name = node->outputs[i];
      if (name.empty()) continue;
      graph.values[name] = ValueInfo::from_shape(name, (*results)[i].dtype(), (*results)[i].shape());
      graph.initializers[name] = std::move((*results)[i]);
    }
    graph.remove_node(node);
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
