#include "core/graph_edits.hpp"

#include <algorithm>

namespace asc::fusion {

void import_fusion_domain(Graph& graph) { graph.opset_imports.emplace(kFusionDomain, kFusionDomainVersion); }

void append_provenance(Node& target, const Node& absorbed) {
  for (const auto& origin : absorbed.provenance)
    if (std::find(target.provenance.begin(), target.provenance.end(), origin) == target.provenance.end())
      target.provenance.push_back(origin);
}

bool bypass_node(Graph& graph, Node* node, const std::string& input, const std::string& output) {
  Node* producer = graph.producer(input);
  if (!graph.is_graph_output(output)) {
    graph.replace_all_uses(output, input);
  } else if (producer != nullptr && !graph.is_graph_output(input)) {
    for (auto& name : producer->outputs)
      if (name == input) name = output;
    graph.replace_all_uses(input, output);
  } else {
    return false;
  }
  if (producer != nullptr) append_provenance(*producer, *node);
  graph.remove_node(node);
  return true;
}

bool can_bypass(const Graph& graph, const std::string& input, const std::string& output) {
  return !graph.is_graph_output(output) || (graph.producer(input) != nullptr && !graph.is_graph_output(input));
}

bool name_in_use(const Graph& graph, const std::string& name) {
  if (graph.values.count(name) != 0 || graph.initializers.count(name) != 0) return true;
  auto listed = [&](const std::vector<std::string>& names) { return std::find(names.begin(), names.end(), name) != names.end(); };
  if (listed(graph.inputs) || listed(graph.outputs)) return true;
  return std::any_of(graph.nodes().begin(), graph.nodes().end(),
                     [&](const Node* node) { return listed(node->inputs) || listed(node->outputs); });
}

std::string fresh_value_name(const Graph& graph, const std::string& base) {
  if (!name_in_use(graph, base)) return base;
  for (std::size_t n = 1;; ++n)
    if (std::string candidate = base + "_" + std::to_string(n); !name_in_use(graph, candidate)) return candidate;
}

std::string add_initializer(Graph& graph, const std::string& base, Tensor value) {
  const std::string name = fresh_value_name(graph, base);
  graph.values[name] = ValueInfo::from_shape(name, value.dtype(), value.shape());
  graph.initializers.emplace(name, std::move(value));
  return name;
}

std::optional<std::vector<Dim>> value_dims(const Graph& graph, const std::string& name) {
  if (const ValueInfo* info = graph.value_info(name); info != nullptr && info->shape) return info->shape;
  const auto init = graph.initializers.find(name);
  if (init != graph.initializers.end()) return std::vector<Dim>(init->second.shape().begin(), init->second.shape().end());
  return std::nullopt;
}

std::optional<Shape> value_static_shape(const Graph& graph, const std::string& name) {
  const auto dims = value_dims(graph, name);
  if (!dims) return std::nullopt;
  Shape shape;
  for (const Dim& d : *dims) {
    if (!d.is_static()) return std::nullopt;
    shape.push_back(d.value);
  }
  return shape;
}

DType value_dtype(const Graph& graph, const std::string& name) {
  if (const ValueInfo* info = graph.value_info(name); info != nullptr && info->dtype != DType::Undefined)
    return info->dtype;
  const auto init = graph.initializers.find(name);
  return init != graph.initializers.end() ? init->second.dtype() : DType::Undefined;
}

std::optional<std::size_t> value_rank(const Graph& graph, const std::string& name) {
  const auto dims = value_dims(graph, name);
  if (!dims) return std::nullopt;
  return dims->size();
}

}  // namespace asc::fusion
