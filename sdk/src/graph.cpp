#include "asc/sdk/graph.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_set>

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

// Calls fn(graph) for every subgraph attribute of `node` (If branches, Loop bodies, ...).
template <class Fn> void for_each_subgraph(const Node& node, Fn&& fn) {
  for (const auto& [name, value] : node.attributes.all()) {
    if (const auto* graph = std::get_if<std::shared_ptr<Graph>>(&value)) {
      if (*graph) fn(**graph);
    } else if (const auto* graphs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&value)) {
      for (const auto& g : *graphs)
        if (g) fn(*g);
    }
  }
}

// Every value name a node reads: its inputs and whatever its subgraphs read (outer-scope
// captures are among those; names local to the subgraph are harmless extras).
void collect_uses(const Node& node, std::unordered_set<std::string>& uses) {
  for (const auto& input : node.inputs)
    if (!input.empty()) uses.insert(input);
  for_each_subgraph(node, [&](const Graph& subgraph) {
    for (const Node* inner : subgraph.nodes()) collect_uses(*inner, uses);
    for (const auto& output : subgraph.outputs) uses.insert(output);
  });
}

void deep_copy_subgraphs(Attributes& attributes) {
  for (const auto& [name, value] : attributes.all()) {
    if (const auto* graph = std::get_if<std::shared_ptr<Graph>>(&value)) {
      if (*graph) attributes.set(name, std::make_shared<Graph>(**graph));
    } else if (const auto* graphs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&value)) {
      std::vector<std::shared_ptr<Graph>> copies;
      for (const auto& g : *graphs) copies.push_back(g ? std::make_shared<Graph>(*g) : nullptr);
      attributes.set(name, std::move(copies));
    }
  }
}

std::string dims_to_string(const std::vector<Dim>& dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) text += ',';
    if (dims[i].is_static()) text += std::to_string(dims[i].value);
    else text += dims[i].symbol.empty() ? "?" : dims[i].symbol;
  }
  return text + "]";
}

}  // namespace

bool ValueInfo::has_static_shape() const {
  return shape.has_value() && std::all_of(shape->begin(), shape->end(), [](const Dim& d) { return d.is_static(); });
}

Shape ValueInfo::static_shape() const {
  if (!has_static_shape())
    throw Error(ErrorCode::ShapeInferenceFailed, "value '" + name + "' has no static shape: " + to_string(*this));
  Shape result;
  for (const Dim& d : *shape) result.push_back(d.value);
  return result;
}

ValueInfo ValueInfo::from_shape(std::string name, DType dtype, const Shape& shape) {
  ValueInfo info;
  info.name = std::move(name);
  info.dtype = dtype;
  info.shape = std::vector<Dim>(shape.begin(), shape.end());
  return info;
}

std::string to_string(const ValueInfo& info) {
  return std::string(dtype_name(info.dtype)) + (info.shape ? dims_to_string(*info.shape) : "[unknown rank]");
}

std::string Node::describe() const {
  const std::string op = domain.empty() || domain == "ai.onnx" ? op_type : domain + "." + op_type;
  return "node '" + name + "' (" + op + ")";
}

Graph::Graph(const Graph& other)
    : name(other.name),
      opset_imports(other.opset_imports),
      inputs(other.inputs),
      outputs(other.outputs),
      values(other.values),
      initializers(other.initializers),
      metadata(other.metadata) {
  storage_.reserve(other.order_.size());
  order_.reserve(other.order_.size());
  for (const Node* node : other.order_) {
    auto copy = std::make_unique<Node>(*node);
    deep_copy_subgraphs(copy->attributes);
    order_.push_back(copy.get());
    storage_.push_back(std::move(copy));
  }
}

Graph& Graph::operator=(const Graph& other) {
  if (this != &other) *this = Graph(other);
  return *this;
}

std::int64_t Graph::opset(const std::string& domain) const {
  auto it = opset_imports.find(domain);
  if (it == opset_imports.end() && domain.empty()) it = opset_imports.find("ai.onnx");
  return it == opset_imports.end() ? 0 : it->second;
}

Node* Graph::find_node(const std::string& node_name) const {
  for (Node* node : order_)
    if (node->name == node_name) return node;
  return nullptr;
}

Node& Graph::add_node(Node node) {
  node.attributes.set_owner(node.describe());
  storage_.push_back(std::make_unique<Node>(std::move(node)));
  order_.push_back(storage_.back().get());
  return *order_.back();
}

Node& Graph::replace_nodes(std::span<Node* const> old_nodes, Node replacement) {
  // Copied first: callers may pass a view of nodes(), which the insertion below invalidates.
  const std::vector<Node*> targets(old_nodes.begin(), old_nodes.end());
  if (targets.empty()) throw Error(ErrorCode::Internal, "replace_nodes: no nodes to replace by " + replacement.describe());
  std::unordered_set<const Node*> doomed;
  for (const Node* node : targets) {
    if (std::find(order_.begin(), order_.end(), node) == order_.end())
      throw Error(ErrorCode::Internal, "replace_nodes: " + (node ? node->describe() : std::string("null node")) +
                                           " is not in graph '" + name + "'");
    doomed.insert(node);
  }

  std::vector<std::string> provenance;
  std::unordered_set<std::string> seen;
  auto add_origin = [&](const std::string& origin) {
    if (seen.insert(origin).second) provenance.push_back(origin);
  };
  std::size_t insert_at = order_.size();
  for (std::size_t i = 0; i < order_.size(); ++i) {
    if (doomed.count(order_[i]) == 0) continue;
    insert_at = std::min(insert_at, i);
    for (const auto& origin : order_[i]->provenance) add_origin(origin);
  }
  for (const auto& origin : replacement.provenance) add_origin(origin);
  replacement.provenance = std::move(provenance);
  replacement.attributes.set_owner(replacement.describe());

  storage_.push_back(std::make_unique<Node>(std::move(replacement)));
  Node* added = storage_.back().get();
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(insert_at), added);
  std::erase_if(order_, [&](const Node* node) { return doomed.count(node) != 0; });
  std::erase_if(storage_, [&](const auto& node) { return doomed.count(node.get()) != 0; });
  sort_topologically();
  return *added;
}

void Graph::remove_node(Node* node) {
  const auto in_order = std::find(order_.begin(), order_.end(), node);
  if (in_order == order_.end())
    throw Error(ErrorCode::Internal, "remove_node: node is not in graph '" + name + "'");
  order_.erase(in_order);
  const auto owned = std::find_if(storage_.begin(), storage_.end(), [&](const auto& p) { return p.get() == node; });
  storage_.erase(owned);
}

std::size_t Graph::remove_dead_nodes() {
  std::unordered_set<std::string> live(outputs.begin(), outputs.end());
  std::vector<Node*> dead;
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
    Node* node = *it;
    const bool needed = std::any_of(node->outputs.begin(), node->outputs.end(),
                                    [&](const std::string& output) { return !output.empty() && live.count(output); });
    if (needed) collect_uses(*node, live);
    else dead.push_back(node);
  }
  for (Node* node : dead) remove_node(node);

  const std::unordered_set<std::string> graph_inputs(inputs.begin(), inputs.end());
  for (auto it = initializers.begin(); it != initializers.end();) {
    if (live.count(it->first) == 0 && graph_inputs.count(it->first) == 0) it = initializers.erase(it);
    else ++it;
  }
  // Drop type info of values that no longer exist anywhere.
  std::unordered_set<std::string> present = live;
  present.insert(inputs.begin(), inputs.end());
  for (const Node* node : order_) present.insert(node->outputs.begin(), node->outputs.end());
  for (auto it = values.begin(); it != values.end();) {
    if (present.count(it->first) == 0) it = values.erase(it);
    else ++it;
  }
  return dead.size();
}

void Graph::sort_topologically() {
  const std::size_t count = order_.size();
  std::unordered_map<std::string, std::size_t> producer_of;
  for (std::size_t i = 0; i < count; ++i)
    for (const auto& output : order_[i]->outputs)
      if (!output.empty()) producer_of.emplace(output, i);

  std::vector<std::vector<std::size_t>> successors(count);
  std::vector<std::vector<std::size_t>> predecessors(count);
  std::vector<std::size_t> pending(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    std::unordered_set<std::string> uses;
    collect_uses(*order_[i], uses);
    std::unordered_set<std::size_t> sources;
    for (const auto& value : uses) {
      const auto it = producer_of.find(value);
      if (it != producer_of.end() && sources.insert(it->second).second) {
        successors[it->second].push_back(i);
        predecessors[i].push_back(it->second);
        ++pending[i];
      }
    }
  }

  // Kahn's algorithm, always taking the earliest ready node: valid orders stay as they are.
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < count; ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<Node*> sorted;
  sorted.reserve(count);
  while (!ready.empty()) {
    const std::size_t i = ready.top();
    ready.pop();
    sorted.push_back(order_[i]);
    for (const std::size_t next : successors[i])
      if (--pending[next] == 0) ready.push(next);
  }
  if (sorted.size() == count) {
    order_ = std::move(sorted);
    return;
  }

  // Every unsorted node waits on an unsorted predecessor; walking those back must revisit a node,
  // and the first node seen twice lies on a cycle.
  std::size_t current = 0;
  while (pending[current] == 0) ++current;
  std::vector<bool> visited(count, false);
  while (!visited[current]) {
    visited[current] = true;
    for (const std::size_t previous : predecessors[current]) {
      if (pending[previous] != 0) {
        current = previous;
        break;
      }
    }
  }
  throw Error(ErrorCode::ShapeInferenceFailed,
              "graph '" + name + "' is not acyclic: " + order_[current]->describe() + " lies on a cycle");
}

void Graph::replace_all_uses(const std::string& from, const std::string& to) {
  for (Node* node : order_)
    for (auto& input : node->inputs)
      if (input == from) input = to;
  for (auto& output : outputs)
    if (output == from) output = to;
}

Node* Graph::producer(const std::string& value) const {
  if (value.empty()) return nullptr;
  for (Node* node : order_)
    if (std::find(node->outputs.begin(), node->outputs.end(), value) != node->outputs.end()) return node;
  return nullptr;
}

std::vector<Node*> Graph::consumers(const std::string& value) const {
  std::vector<Node*> result;
  if (value.empty()) return result;
  for (Node* node : order_)
    if (std::find(node->inputs.begin(), node->inputs.end(), value) != node->inputs.end()) result.push_back(node);
  return result;
}

bool Graph::is_graph_output(const std::string& value) const {
  return std::find(outputs.begin(), outputs.end(), value) != outputs.end();
}

const ValueInfo* Graph::value_info(const std::string& value) const {
  const auto it = values.find(value);
  return it == values.end() ? nullptr : &it->second;
}

std::string Graph::unique_value_name(const std::string& base) const {
  std::unordered_set<std::string> taken(inputs.begin(), inputs.end());
  taken.insert(outputs.begin(), outputs.end());
  for (const auto& [value, info] : values) taken.insert(value);
  for (const auto& [value, tensor] : initializers) taken.insert(value);
  for (const Node* node : order_) {
    taken.insert(node->inputs.begin(), node->inputs.end());
    taken.insert(node->outputs.begin(), node->outputs.end());
  }
  if (!base.empty() && taken.count(base) == 0) return base;
  for (std::size_t n = 1;; ++n) {
    std::string candidate = base + "_" + std::to_string(n);
    if (taken.count(candidate) == 0) return candidate;
  }
}

std::string Graph::unique_node_name(const std::string& base) const {
  std::unordered_set<std::string> taken;
  for (const Node* node : order_) taken.insert(node->name);
  if (!base.empty() && taken.count(base) == 0) return base;
  for (std::size_t n = 1;; ++n) {
    std::string candidate = base + "_" + std::to_string(n);
    if (taken.count(candidate) == 0) return candidate;
  }
}

}  // namespace asc
