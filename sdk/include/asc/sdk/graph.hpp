// The graph every plugin speaks: nodes in topological order over named values, with
// initializers, graph inputs/outputs, symbolic dimensions and per-node provenance.
//
// Values are identified by name (as in ONNX). An empty input name means an omitted optional
// input. Every node carries `provenance`: the names of the original model nodes it stands for.
// The parser sets it to the node's own name; every rewrite through replace_nodes() keeps the
// union, so a fused kernel can always be traced back to the ONNX nodes it came from.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "asc/sdk/attributes.hpp"
#include "asc/sdk/tensor.hpp"

namespace asc {

// A dimension: a known size, or a symbol ("batch") / unknown (-1 with an empty symbol).
struct Dim {
  std::int64_t value = -1;
  std::string symbol;

  Dim() = default;
  Dim(std::int64_t v) : value(v) {}  // NOLINT: implicit from an integer reads naturally
  static Dim symbolic(std::string name) { Dim d; d.symbol = std::move(name); return d; }
  bool is_static() const noexcept { return value >= 0; }
  bool operator==(const Dim& o) const { return value == o.value && symbol == o.symbol; }
};

// The type of a value: element type and shape. `shape` is std::nullopt when the rank is unknown.
struct ValueInfo {
  std::string name;
  DType dtype = DType::Undefined;
  std::optional<std::vector<Dim>> shape;

  bool has_static_shape() const;
  // The static shape; throws EE1005 naming the value when a dimension is not static.
  Shape static_shape() const;
  static ValueInfo from_shape(std::string name, DType dtype, const Shape& shape);
};

// "float32[batch,3,224,224]"
std::string to_string(const ValueInfo& info);

struct Node {
  std::string name;
  std::string op_type;
  std::string domain;  // "" is the default ONNX domain ("ai.onnx")
  Attributes attributes;
  std::vector<std::string> inputs;   // "" for an omitted optional input
  std::vector<std::string> outputs;  // "" for an omitted optional output
  std::vector<std::string> provenance;

  // "node 'conv1' (Conv)" for messages.
  std::string describe() const;
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph& other);             // deep copy of nodes (tensors share buffers)
  Graph& operator=(const Graph& other);
  Graph(Graph&&) noexcept = default;
  Graph& operator=(Graph&&) noexcept = default;

  std::string name;
  // Domain -> opset version ("" is the default ONNX domain).
  std::map<std::string, std::int64_t> opset_imports;
  std::vector<std::string> inputs;   // graph inputs, excluding initializers
  std::vector<std::string> outputs;
  std::unordered_map<std::string, ValueInfo> values;     // type info, where known
  std::unordered_map<std::string, Tensor> initializers;  // constant tensors by value name
  // Metadata carried along (producer name, doc string, ...).
  std::map<std::string, std::string> metadata;

  // The imported opset of `domain` ("" and "ai.onnx" both mean the default domain); 0 when the
  // graph does not import it.
  std::int64_t opset(const std::string& domain = "") const;

  // Nodes, always in a valid topological order.
  std::span<Node* const> nodes() const noexcept { return order_; }
  std::size_t node_count() const noexcept { return order_.size(); }
  Node* find_node(const std::string& name) const;

  // Appends a node. Nodes added out of order are fine once sort_topologically() runs.
  Node& add_node(Node node);
  // Replaces `old_nodes` by one node whose provenance is the union of theirs (in the original
  // topological order, no duplicates) plus whatever `replacement.provenance` already lists,
  // then restores topological order. Returns the new node.
  Node& replace_nodes(std::span<Node* const> old_nodes, Node replacement);
  void remove_node(Node* node);
  // Removes nodes none of whose outputs reach a graph output, and initializers nobody reads.
  // Returns the number of nodes removed.
  std::size_t remove_dead_nodes();
  // Re-establishes topological order (stable: keeps the current order where it is valid).
  // Throws EE1005 naming a node on the cycle if the graph is not a DAG.
  void sort_topologically();
  // Renames every use of value `from` (node inputs, graph outputs) to `to`.
  void replace_all_uses(const std::string& from, const std::string& to);

  Node* producer(const std::string& value) const;
  std::vector<Node*> consumers(const std::string& value) const;
  bool is_graph_output(const std::string& value) const;
  bool is_initializer(const std::string& value) const { return initializers.count(value) != 0; }
  const ValueInfo* value_info(const std::string& value) const;

  // A value name not yet used in this graph, starting from `base`.
  std::string unique_value_name(const std::string& base) const;
  std::string unique_node_name(const std::string& base) const;

 private:
  std::vector<std::unique_ptr<Node>> storage_;
  std::vector<Node*> order_;
};

}  // namespace asc
