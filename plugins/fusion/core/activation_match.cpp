#include "core/activation_match.hpp"

#include <limits>

#include "core/constant_values.hpp"
#include "core/graph_edits.hpp"

namespace asc::fusion {
namespace {

bool is_op(const Node* node, const char* op_type, const char* domain = "") {
  return node != nullptr && node->op_type == op_type && node->domain == domain;
}

// Clip's bounds: attributes before opset 11, constant inputs from 11 on (omitted = unbounded).
std::optional<std::vector<float>> clip_bounds(const Graph& graph, const ValueUses& uses, const Node& clip) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  std::vector<float> bounds{clip.attributes.get_float("min", -inf), clip.attributes.get_float("max", inf)};
  for (std::size_t i = 1; i < 3 && i < clip.inputs.size(); ++i) {
    if (clip.inputs[i].empty()) continue;
    const std::optional<double> bound = scalar_constant(graph, uses, clip.inputs[i]);
    if (!bound) return std::nullopt;
    bounds[i - 1] = static_cast<float>(*bound);
  }
  return bounds;
}

std::optional<ActivationMatch> match_silu(const ValueUses& uses, const std::string& value) {
  const auto& readers = uses.consumers(value);
  if (readers.size() != 2 || uses.is_graph_output(value)) return std::nullopt;
  Node* sigmoid = is_op(readers[0], "Sigmoid") ? readers[0] : readers[1];
  Node* mul = sigmoid == readers[0] ? readers[1] : readers[0];
  if (!is_op(sigmoid, "Sigmoid") || !is_op(mul, "Mul") || sigmoid->inputs.at(0) != value) return std::nullopt;
  const std::string& gate = sigmoid->outputs.at(0);
  const bool operands = (mul->inputs.at(0) == value && mul->inputs.at(1) == gate) ||
                        (mul->inputs.at(1) == value && mul->inputs.at(0) == gate);
  if (!operands || uses.sole_consumer(gate) != mul) return std::nullopt;
  return ActivationMatch{"SiLU", {}, {sigmoid, mul}, mul->outputs.at(0)};
}

}  // namespace

std::optional<ActivationMatch> match_activation(const Graph& graph, const ValueUses& uses, const std::string& value) {
  Node* node = uses.sole_consumer(value);
  if (node == nullptr) return match_silu(uses, value);
  if (node->inputs.empty() || node->inputs[0] != value || node->outputs.size() != 1) return std::nullopt;
  ActivationMatch match{"", {}, {node}, node->outputs[0]};
  const Attributes& attributes = node->attributes;
  if (is_op(node, "Relu") || is_op(node, "Sigmoid") || is_op(node, "Tanh") || is_op(node, "HardSwish")) {
    match.kind = node->op_type;
  } else if (is_op(node, "LeakyRelu")) {
    match.kind = "LeakyRelu";
    match.params = {attributes.get_float("alpha", 0.01f)};
  } else if (is_op(node, "HardSigmoid")) {
    match.kind = "HardSigmoid";
    match.params = {attributes.get_float("alpha", 0.2f), attributes.get_float("beta", 0.5f)};
  } else if (is_op(node, "Clip")) {
    const auto bounds = clip_bounds(graph, uses, *node);
    if (!bounds) return std::nullopt;
    match.kind = "Clip";
    match.params = *bounds;
  } else if (is_op(node, "Gelu", kFusionDomain)) {
    match.kind = attributes.get_string("approximate", "none") == "tanh" ? "GeluTanh" : "Gelu";
  } else {
    return std::nullopt;
  }
  return match;
}

std::optional<ActivationMatch> match_scalar_scale(const Graph& graph, const ValueUses& uses, const std::string& value) {
  Node* node = uses.sole_consumer(value);
  if (node == nullptr || node->inputs.size() != 2 || node->outputs.size() != 1) return std::nullopt;
  const bool div = is_op(node, "Div") && node->inputs[0] == value;
  const bool mul = is_op(node, "Mul") && (node->inputs[0] == value) != (node->inputs[1] == value);
  if (!div && !mul) return std::nullopt;
  const std::string& other = node->inputs[0] == value ? node->inputs[1] : node->inputs[0];
  const std::optional<Tensor> constant = constant_value(graph, uses, other);
  if (!constant || constant->rank() > 1) return std::nullopt;
  const std::optional<double> factor = scalar_constant(graph, uses, other);
  if (!factor) return std::nullopt;
  return ActivationMatch{node->op_type, {static_cast<float>(*factor)}, {node}, node->outputs[0]};
}

void set_activation(Node& fused, const ActivationMatch& activation) {
  fused.attributes.set("activation", activation.kind);
  if (!activation.params.empty()) fused.attributes.set("activation_params", activation.params);
}

}  // namespace asc::fusion
