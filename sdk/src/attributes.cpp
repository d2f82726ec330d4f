#include "asc/sdk/attributes.hpp"

#include <cstring>
#include <type_traits>

#include "asc/sdk/error.hpp"
#include "asc/sdk/graph.hpp"

namespace asc {
namespace {

bool tensors_equal(const Tensor& a, const Tensor& b) {
  if (a.defined() != b.defined()) return false;
  if (!a.defined()) return true;
  if (a.dtype() != b.dtype() || a.shape() != b.shape() || a.format() != b.format()) return false;
  const Tensor ca = a.contiguous();
  const Tensor cb = b.contiguous();
  return std::memcmp(ca.view().raw(), cb.view().raw(), ca.nbytes()) == 0;
}

bool graphs_equal(const Graph& a, const Graph& b);

bool graph_pointers_equal(const std::shared_ptr<Graph>& a, const std::shared_ptr<Graph>& b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  return graphs_equal(*a, *b);
}

bool graphs_equal(const Graph& a, const Graph& b) {
  if (a.name != b.name || a.inputs != b.inputs || a.outputs != b.outputs || a.node_count() != b.node_count() ||
      a.initializers.size() != b.initializers.size())
    return false;
  for (std::size_t i = 0; i < a.node_count(); ++i) {
    const Node& x = *a.nodes()[i];
    const Node& y = *b.nodes()[i];
    if (x.name != y.name || x.op_type != y.op_type || x.domain != y.domain || x.inputs != y.inputs ||
        x.outputs != y.outputs || !(x.attributes == y.attributes))
      return false;
  }
  for (const auto& [name, tensor] : a.initializers) {
    const auto other = b.initializers.find(name);
    if (other == b.initializers.end() || !tensors_equal(tensor, other->second)) return false;
  }
  return true;
}

template <class T, class Eq> bool lists_equal(const std::vector<T>& a, const std::vector<T>& b, Eq equal) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!equal(a[i], b[i])) return false;
  return true;
}

bool values_equal(const AttributeValue& a, const AttributeValue& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) -> bool {
        using T = std::decay_t<decltype(x)>;
        const auto& y = std::get<T>(b);
        if constexpr (std::is_same_v<T, Tensor>) return tensors_equal(x, y);
        else if constexpr (std::is_same_v<T, std::shared_ptr<Graph>>) return graph_pointers_equal(x, y);
        else if constexpr (std::is_same_v<T, std::vector<Tensor>>) return lists_equal(x, y, tensors_equal);
        else if constexpr (std::is_same_v<T, std::vector<std::shared_ptr<Graph>>>)
          return lists_equal(x, y, graph_pointers_equal);
        else return x == y;
      },
      a);
}

const char* kind_name(const AttributeValue& value) {
  static constexpr const char* kNames[] = {"int", "float", "string", "tensor", "graph",
                                           "ints", "floats", "strings", "tensors", "graphs"};
  return kNames[value.index()];
}

}  // namespace

template <class T> const T* Attributes::find(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return nullptr;
  if (const T* value = std::get_if<T>(&it->second)) return value;
  AttributeValue expected = T{};
  throw Error(ErrorCode::InvalidOperator, (owner_.empty() ? std::string("attribute '") : owner_ + ": attribute '") +
                                              name + "' is of kind " + kind_name(it->second) + ", expected " +
                                              kind_name(expected));
}

template <class T> const T& Attributes::require(const std::string& name, const char* kind) const {
  if (const T* value = find<T>(name)) return *value;
  throw Error(ErrorCode::InvalidOperator, (owner_.empty() ? std::string() : owner_ + ": ") + "required " + kind +
                                              " attribute '" + name + "' is missing");
}

std::int64_t Attributes::get_int(const std::string& name, std::int64_t fallback) const {
  const auto* value = find<std::int64_t>(name);
  return value != nullptr ? *value : fallback;
}

float Attributes::get_float(const std::string& name, float fallback) const {
  const auto* value = find<float>(name);
  return value != nullptr ? *value : fallback;
}

std::string Attributes::get_string(const std::string& name, const std::string& fallback) const {
  const auto* value = find<std::string>(name);
  return value != nullptr ? *value : fallback;
}

std::vector<std::int64_t> Attributes::get_ints(const std::string& name, std::vector<std::int64_t> fallback) const {
  const auto* value = find<std::vector<std::int64_t>>(name);
  return value != nullptr ? *value : fallback;
}

std::vector<float> Attributes::get_floats(const std::string& name, std::vector<float> fallback) const {
  const auto* value = find<std::vector<float>>(name);
  return value != nullptr ? *value : fallback;
}

std::vector<std::string> Attributes::get_strings(const std::string& name, std::vector<std::string> fallback) const {
  const auto* value = find<std::vector<std::string>>(name);
  return value != nullptr ? *value : fallback;
}

std::int64_t Attributes::require_int(const std::string& name) const { return require<std::int64_t>(name, "int"); }

float Attributes::require_float(const std::string& name) const { return require<float>(name, "float"); }

const std::string& Attributes::require_string(const std::string& name) const {
  return require<std::string>(name, "string");
}

const std::vector<std::int64_t>& Attributes::require_ints(const std::string& name) const {
  return require<std::vector<std::int64_t>>(name, "ints");
}

const Tensor& Attributes::require_tensor(const std::string& name) const { return require<Tensor>(name, "tensor"); }

const std::shared_ptr<Graph>& Attributes::require_graph(const std::string& name) const {
  return require<std::shared_ptr<Graph>>(name, "graph");
}

bool Attributes::operator==(const Attributes& other) const {
  if (values_.size() != other.values_.size()) return false;
  for (const auto& [name, value] : values_) {
    const auto it = other.values_.find(name);
    if (it == other.values_.end() || !values_equal(value, it->second)) return false;
  }
  return true;
}

}  // namespace asc
