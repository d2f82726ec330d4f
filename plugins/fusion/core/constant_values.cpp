#include "core/constant_values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace asc::fusion {

std::optional<Tensor> constant_node_value(const Node& node) {
  const Attributes& attributes = node.attributes;
  if (attributes.has("value")) return attributes.require_tensor("value");
  if (attributes.has("value_float")) return Tensor::scalar<float>(attributes.require_float("value_float"));
  if (attributes.has("value_int")) return Tensor::scalar<std::int64_t>(attributes.require_int("value_int"));
  if (attributes.has("value_floats")) {
    const std::vector<float> values = attributes.get_floats("value_floats");
    return Tensor::from_vector<float>({static_cast<std::int64_t>(values.size())}, values);
  }
  if (attributes.has("value_ints")) {
    const std::vector<std::int64_t> values = attributes.get_ints("value_ints");
    return Tensor::from_vector<std::int64_t>({static_cast<std::int64_t>(values.size())}, values);
  }
  return std::nullopt;
}

std::optional<Tensor> constant_value(const Graph& graph, const ValueUses& uses, const std::string& name) {
  if (name.empty()) return std::nullopt;
  const auto init = graph.initializers.find(name);
  if (init != graph.initializers.end()) return init->second;
  const Node* producer = uses.producer(name);
  if (producer != nullptr && producer->op_type == "Constant" && producer->domain.empty())
    return constant_node_value(*producer);
  return std::nullopt;
}

bool is_constant(const Graph& graph, const ValueUses& uses, const std::string& name) {
  return constant_value(graph, uses, name).has_value();
}

std::optional<double> scalar_constant(const Graph& graph, const ValueUses& uses, const std::string& name) {
  const std::optional<Tensor> value = constant_value(graph, uses, name);
  if (!value || value->numel() != 1 || value->dtype() == DType::Bool) return std::nullopt;
  return value->to_doubles().front();
}

bool is_scalar_constant(const Graph& graph, const ValueUses& uses, const std::string& name, double expected,
                        double tolerance) {
  const std::optional<double> value = scalar_constant(graph, uses, name);
  return value && std::abs(*value - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

}  // namespace asc::fusion
