#include "om/om_graph_codec.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "om/om_enums.hpp"
#include "om/om_tensor_codec.hpp"

namespace asc::npusim {
namespace {

std::string in_quotes(const std::string& text) { return "'" + text + "'"; }

template <class Map> std::vector<typename Map::const_iterator> sorted_by_key(const Map& map) {
  std::vector<typename Map::const_iterator> entries;
  for (auto it = map.begin(); it != map.end(); ++it) entries.push_back(it);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a->first < b->first; });
  return entries;
}

void encode_value_info(const ValueInfo& info, om::ValueInfo& proto) {
  proto.set_name(info.name);
  proto.set_dtype(to_proto(info.dtype));
  proto.set_has_shape(info.shape.has_value());
  if (!info.shape) return;
  for (const Dim& dim : *info.shape) {
    om::Dim& out = *proto.add_dims();
    out.set_value(dim.value);
    out.set_symbol(dim.symbol);
  }
}

ValueInfo decode_value_info(const om::ValueInfo& proto, const std::string& origin, const std::string& where) {
  ValueInfo info;
  info.name = proto.name();
  info.dtype = dtype_from_proto(proto.dtype(), origin, where);
  if (!proto.has_shape()) {
    if (proto.dims_size() != 0) om_format_error(origin, where, "dimensions listed for a value of unknown rank");
    return info;
  }
  std::vector<Dim> dims;
  for (const om::Dim& dim : proto.dims()) {
    Dim out;
    out.value = dim.value();
    out.symbol = dim.symbol();
    dims.push_back(std::move(out));
  }
  info.shape = std::move(dims);
  return info;
}

void encode_attribute(const std::string& name, const AttributeValue& value, om::Attribute& proto) {
  proto.set_name(name);
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t>) proto.set_i(v);
        else if constexpr (std::is_same_v<T, float>) proto.set_f(v);
        else if constexpr (std::is_same_v<T, std::string>) proto.set_s(v);
        else if constexpr (std::is_same_v<T, Tensor>) *proto.mutable_t() = encode_tensor(v);
        // A null subgraph is written as an empty one: the parser never produces null.
        else if constexpr (std::is_same_v<T, std::shared_ptr<Graph>>) *proto.mutable_g() = encode_graph(v ? *v : Graph());
        else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
          proto.mutable_ints()->mutable_values()->Add(v.begin(), v.end());
        else if constexpr (std::is_same_v<T, std::vector<float>>)
          proto.mutable_floats()->mutable_values()->Add(v.begin(), v.end());
        else if constexpr (std::is_same_v<T, std::vector<std::string>>)
          for (const std::string& s : v) proto.mutable_strings()->add_values(s);
        else if constexpr (std::is_same_v<T, std::vector<Tensor>>)
          for (const Tensor& t : v) *proto.mutable_tensors()->add_values() = encode_tensor(t);
        else if constexpr (std::is_same_v<T, std::vector<std::shared_ptr<Graph>>>)
          for (const auto& g : v) *proto.mutable_graphs()->add_values() = encode_graph(g ? *g : Graph());
        else static_assert(sizeof(T) == 0, "attribute kind without an .om encoding");
      },
      value);
}

AttributeValue decode_attribute(const om::Attribute& proto, const std::string& origin, const std::string& where) {
  switch (proto.value_case()) {
    case om::Attribute::kI: return proto.i();
    case om::Attribute::kF: return proto.f();
    case om::Attribute::kS: return proto.s();
    case om::Attribute::kT: return decode_tensor(proto.t(), origin, where);
    case om::Attribute::kG: return std::make_shared<Graph>(decode_graph(proto.g(), origin));
    case om::Attribute::kInts: return std::vector<std::int64_t>(proto.ints().values().begin(), proto.ints().values().end());
    case om::Attribute::kFloats: return std::vector<float>(proto.floats().values().begin(), proto.floats().values().end());
    case om::Attribute::kStrings:
      return std::vector<std::string>(proto.strings().values().begin(), proto.strings().values().end());
    case om::Attribute::kTensors: {
      std::vector<Tensor> tensors;
      for (const om::TensorData& t : proto.tensors().values()) tensors.push_back(decode_tensor(t, origin, where));
      return tensors;
    }
    case om::Attribute::kGraphs: {
      std::vector<std::shared_ptr<Graph>> graphs;
      for (const om::Graph& g : proto.graphs().values()) graphs.push_back(std::make_shared<Graph>(decode_graph(g, origin)));
      return graphs;
    }
    case om::Attribute::VALUE_NOT_SET: break;
  }
  om_format_error(origin, where, "attribute without a value (an attribute kind this build does not know?)");
}

void encode_node(const Node& node, om::Node& proto) {
  proto.set_name(node.name);
  proto.set_op_type(node.op_type);
  proto.set_domain(node.domain);
  for (const auto& [name, value] : node.attributes.all()) encode_attribute(name, value, *proto.add_attributes());
  for (const std::string& input : node.inputs) proto.add_inputs(input);
  for (const std::string& output : node.outputs) proto.add_outputs(output);
  for (const std::string& original : node.provenance) proto.add_provenance(original);
}

Node decode_node(const om::Node& proto, const std::string& origin, const std::string& graph_where) {
  Node node;
  node.name = proto.name();
  node.op_type = proto.op_type();
  node.domain = proto.domain();
  const std::string where = graph_where + ", " + node.describe();
  for (const om::Attribute& attribute : proto.attributes()) {
    const std::string attribute_where = where + ", attribute " + in_quotes(attribute.name());
    if (node.attributes.has(attribute.name())) om_format_error(origin, attribute_where, "listed twice");
    node.attributes.set(attribute.name(), decode_attribute(attribute, origin, attribute_where));
  }
  node.inputs.assign(proto.inputs().begin(), proto.inputs().end());
  node.outputs.assign(proto.outputs().begin(), proto.outputs().end());
  node.provenance.assign(proto.provenance().begin(), proto.provenance().end());
  return node;
}

}  // namespace

om::Graph encode_graph(const Graph& graph, const std::map<std::string, DType>& stored_dtypes) {
  om::Graph proto;
  proto.set_name(graph.name);
  for (const auto& [domain, version] : graph.opset_imports) {
    om::OpsetImport& import = *proto.add_opset_imports();
    import.set_domain(domain);
    import.set_version(version);
  }
  for (const std::string& input : graph.inputs) proto.add_inputs(input);
  for (const std::string& output : graph.outputs) proto.add_outputs(output);
  // Sorted, so that one graph always gives the same bytes.
  for (const auto& entry : sorted_by_key(graph.values)) encode_value_info(entry->second, *proto.add_values());
  for (const auto& entry : sorted_by_key(graph.initializers)) {
    const auto& [name, tensor] = *entry;
    const auto stored = stored_dtypes.find(name);
    om::Initializer& initializer = *proto.add_initializers();
    initializer.set_name(name);
    *initializer.mutable_tensor() =
        encode_tensor(tensor, stored != stored_dtypes.end() ? stored->second : tensor.dtype());
  }
  for (const auto& [key, value] : graph.metadata) {
    om::MetadataEntry& entry = *proto.add_metadata();
    entry.set_key(key);
    entry.set_value(value);
  }
  for (const Node* node : graph.nodes()) encode_node(*node, *proto.add_nodes());
  return proto;
}

namespace {

// The graph of `proto`; when GraphProto is not const, each initializer's bytes are released once
// decoded.
template <class GraphProto>
Graph decode_graph_from(GraphProto& proto, const std::string& origin) {
  constexpr bool kConsume = !std::is_const_v<GraphProto>;
  Graph graph;
  graph.name = proto.name();
  const std::string where = "graph " + in_quotes(graph.name);
  for (const om::OpsetImport& import : proto.opset_imports())
    if (!graph.opset_imports.emplace(import.domain(), import.version()).second)
      om_format_error(origin, where, "opset of domain " + in_quotes(import.domain()) + " imported twice");
  graph.inputs.assign(proto.inputs().begin(), proto.inputs().end());
  graph.outputs.assign(proto.outputs().begin(), proto.outputs().end());
  for (const om::ValueInfo& value : proto.values()) {
    const std::string value_where = where + ", value " + in_quotes(value.name());
    if (!graph.values.emplace(value.name(), decode_value_info(value, origin, value_where)).second)
      om_format_error(origin, value_where, "described twice");
  }
  auto& initializers = [&]() -> auto& {
    if constexpr (kConsume) return *proto.mutable_initializers();
    else return proto.initializers();
  }();
  for (auto& initializer : initializers) {
    const std::string initializer_where = where + ", initializer " + in_quotes(initializer.name());
    if (graph.initializers.count(initializer.name()) != 0) om_format_error(origin, initializer_where, "stored twice");
    graph.initializers.emplace(initializer.name(), decode_tensor(initializer.tensor(), origin, initializer_where));
    if constexpr (kConsume) std::string().swap(*initializer.mutable_tensor()->mutable_data());
  }
  for (const om::MetadataEntry& entry : proto.metadata()) graph.metadata[entry.key()] = entry.value();
  for (const om::Node& node : proto.nodes()) graph.add_node(decode_node(node, origin, where));
  return graph;
}

}  // namespace

Graph decode_graph(const om::Graph& proto, const std::string& origin) { return decode_graph_from(proto, origin); }

Graph decode_graph_consuming_weights(om::Graph& proto, const std::string& origin) {
  return decode_graph_from(proto, origin);
}

}  // namespace asc::npusim
