#include "asc/sdk/op_registry.hpp"

#include <string>

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

// ONNX spells the default domain both "" and "ai.onnx".
std::string normalized_domain(const std::string& domain) { return domain == "ai.onnx" ? std::string() : domain; }

std::string versions_text(const OpDefinition& definition) {
  return definition.end_version == INT_MAX
             ? std::to_string(definition.since_version) + "+"
             : std::to_string(definition.since_version) + "-" + std::to_string(definition.end_version);
}

std::string op_key_text(const std::string& domain, const std::string& op_type) {
  return domain.empty() ? op_type : domain + "." + op_type;
}

std::string plugin_text(const OpDefinition& definition) {
  return definition.plugin.empty() ? std::string("(unnamed plugin)") : "plugin '" + definition.plugin + "'";
}

// "float32[1,3,224,224]", from type info or the initializer, "?" when unknown.
std::string input_type_text(const Graph& graph, const std::string& value) {
  if (value.empty()) return "<omitted>";
  if (const ValueInfo* info = graph.value_info(value)) return to_string(*info);
  const auto init = graph.initializers.find(value);
  if (init != graph.initializers.end())
    return std::string(dtype_name(init->second.dtype())) + shape_to_string(init->second.shape());
  return "?";
}

}  // namespace

std::string_view compute_unit_name(ComputeUnit unit) {
  switch (unit) {
    case ComputeUnit::Cube: return "cube";
    case ComputeUnit::Vector: return "vector";
    case ComputeUnit::Scalar: return "scalar";
    case ComputeUnit::None: return "none";
  }
  return "none";
}

const Tensor& KernelContext::input(std::size_t i) const {
  if (!has_input(i))
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": required input " + std::to_string(i) + " is missing");
  return *inputs[i];
}

const ValueInfo& InferenceContext::input(std::size_t i) const {
  if (!has_input(i))
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": required input " + std::to_string(i) + " is missing");
  return *inputs[i];
}

void OpRegistry::add(OpDefinition definition) {
  definition.domain = normalized_domain(definition.domain);
  const std::string key = op_key_text(definition.domain, definition.op_type);
  if (definition.op_type.empty() || definition.since_version < 1 || definition.end_version < definition.since_version)
    throw Error(ErrorCode::PluginRegistrationFailed, plugin_text(definition) + " registers operator '" + key +
                                                         "' with an invalid version range " + versions_text(definition));
  for (const OpDefinition& existing : definitions_) {
    if (existing.domain != definition.domain || existing.op_type != definition.op_type) continue;
    if (existing.since_version <= definition.end_version && definition.since_version <= existing.end_version)
      throw Error(ErrorCode::PluginDuplicate, "operator " + key + " (domain '" +
                                                  (definition.domain.empty() ? std::string("ai.onnx") : definition.domain) +
                                                  "') versions " + versions_text(definition) + " from " +
                                                  plugin_text(definition) + " overlaps versions " +
                                                  versions_text(existing) + " already registered by " +
                                                  plugin_text(existing));
  }
  definitions_.push_back(std::move(definition));
}

void OpRegistry::remove_plugin(const std::string& plugin) {
  std::erase_if(definitions_, [&](const OpDefinition& definition) { return definition.plugin == plugin; });
}

const OpDefinition* OpRegistry::find(const std::string& domain, const std::string& op_type, std::int64_t opset) const {
  const std::string wanted = normalized_domain(domain);
  for (const OpDefinition& definition : definitions_)
    if (definition.domain == wanted && definition.op_type == op_type && definition.since_version <= opset &&
        opset <= definition.end_version)
      return &definition;
  return nullptr;
}

bool OpRegistry::knows(const std::string& domain, const std::string& op_type) const {
  const std::string wanted = normalized_domain(domain);
  for (const OpDefinition& definition : definitions_)
    if (definition.domain == wanted && definition.op_type == op_type) return true;
  return false;
}

const OpDefinition* find_op(const OpRegistry& registry, const Graph& graph, const Node& node) {
  return registry.find(node.domain, node.op_type, graph.opset(node.domain));
}

void check_all_ops_supported(const OpRegistry& registry, const Graph& graph) {
  std::string lines;
  std::size_t missing = 0;
  for (const Node* node : graph.nodes()) {
    if (find_op(registry, graph, *node) != nullptr) continue;
    ++missing;
    const std::string domain = normalized_domain(node->domain);
    lines += "\n  " + node->describe() + " domain '" + (domain.empty() ? "ai.onnx" : domain) + "' opset " +
             std::to_string(graph.opset(node->domain)) + ", inputs (";
    for (std::size_t i = 0; i < node->inputs.size(); ++i) {
      if (i != 0) lines += ", ";
      lines += input_type_text(graph, node->inputs[i]);
    }
    lines += ")";
    if (registry.knows(node->domain, node->op_type)) {
      lines += "; registered versions:";
      for (const OpDefinition& definition : registry.all())
        if (definition.domain == domain && definition.op_type == node->op_type)
          lines += ' ' + versions_text(definition) + " (" + plugin_text(definition) + ")";
    }
  }
  if (missing == 0) return;
  throw Error(ErrorCode::UnsupportedOperator, std::to_string(missing) + " node(s) of graph '" + graph.name +
                                                  "' have no kernel in the loaded operator libraries:" + lines);
}

}  // namespace asc
