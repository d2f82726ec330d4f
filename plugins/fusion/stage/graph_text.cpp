#include "stage/graph_text.hpp"

#include <map>
#include <memory>
#include <sstream>
#include <type_traits>
#include <variant>

namespace asc::fusion {
namespace {

std::string type_of(const Graph& graph, const std::string& value) {
  if (const ValueInfo* info = graph.value_info(value)) return to_string(*info);
  const auto init = graph.initializers.find(value);
  if (init != graph.initializers.end())
    return std::string(dtype_name(init->second.dtype())) + shape_to_string(init->second.shape());
  return "?";
}

template <class T> std::string join(const std::vector<T>& items) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < items.size(); ++i) out << (i ? "," : "") << items[i];
  out << ']';
  return out.str();
}

void write_graph(std::ostringstream& out, const Graph& graph, const std::string& indent);

void write_attribute(std::ostringstream& out, const AttributeValue& value, const std::string& indent) {
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::int64_t> || std::is_same_v<V, float>) out << v;
        else if constexpr (std::is_same_v<V, std::string>) out << '"' << v << '"';
        else if constexpr (std::is_same_v<V, Tensor>) out << "tensor " << dtype_name(v.dtype()) << shape_to_string(v.shape());
        else if constexpr (std::is_same_v<V, std::shared_ptr<Graph>>) {
          out << "graph:\n";
          if (v) write_graph(out, *v, indent + "    ");
        } else if constexpr (std::is_same_v<V, std::vector<std::int64_t>> || std::is_same_v<V, std::vector<float>>)
          out << join(v);
        else if constexpr (std::is_same_v<V, std::vector<std::string>>) out << join(v);
        else out << "(" << v.size() << " items)";
      },
      value);
}

void write_graph(std::ostringstream& out, const Graph& graph, const std::string& indent) {
  for (const auto& input : graph.inputs) out << indent << "input " << input << ": " << type_of(graph, input) << '\n';
  std::map<std::string, std::string> initializers;  // sorted for stable dumps
  for (const auto& [name, tensor] : graph.initializers) initializers[name] = type_of(graph, name);
  for (const auto& [name, type] : initializers) out << indent << "initializer " << name << ": " << type << '\n';
  for (const Node* node : graph.nodes()) {
    out << indent << node->name << " = " << (node->domain.empty() ? "" : node->domain + ".") << node->op_type << '(';
    for (std::size_t i = 0; i < node->inputs.size(); ++i) out << (i ? ", " : "") << node->inputs[i];
    out << ") -> ";
    for (std::size_t i = 0; i < node->outputs.size(); ++i)
      out << (i ? ", " : "") << node->outputs[i] << ": " << type_of(graph, node->outputs[i]);
    out << "  provenance=" << join(node->provenance) << '\n';
    for (const auto& [name, value] : node->attributes.all()) {
      out << indent << "    " << name << " = ";
      write_attribute(out, value, indent);
      if (!std::holds_alternative<std::shared_ptr<Graph>>(value)) out << '\n';
    }
  }
  for (const auto& output : graph.outputs) out << indent << "output " << output << ": " << type_of(graph, output) << '\n';
}

}  // namespace

std::string graph_to_text(const Graph& graph) {
  std::ostringstream out;
  out << "graph " << graph.name << " (";
  bool first = true;
  for (const auto& [domain, version] : graph.opset_imports) {
    out << (first ? "" : ", ") << (domain.empty() ? "ai.onnx" : domain) << ' ' << version;
    first = false;
  }
  out << ")\n";
  write_graph(out, graph, "");
  return out.str();
}

}  // namespace asc::fusion
