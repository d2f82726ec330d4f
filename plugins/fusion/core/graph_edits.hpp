// Small graph rewrites shared by the passes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <asc/sdk/graph.hpp>

namespace asc::fusion {

// The operator domain of the fused operators this plugin registers, and its version.
inline constexpr const char* kFusionDomain = "asc";
inline constexpr std::int64_t kFusionDomainVersion = 1;
// Makes the graph import the fused operators' domain (needed before adding such a node).
void import_fusion_domain(Graph& graph);

// Adds `absorbed`'s provenance to `target`'s (no duplicates), for rewrites that delete a node
// without going through Graph::replace_nodes.
void append_provenance(Node& target, const Node& absorbed);

// Deletes `node`, whose `output` carries the same value as its `input`: readers of `output` read
// `input` instead. When `output` is a graph output its name must survive, so the producer of
// `input` writes it directly; when that is impossible (input is a graph input or initializer,
// or itself a graph output) the graph is left alone and the result is false.
bool bypass_node(Graph& graph, Node* node, const std::string& input, const std::string& output);
// Whether bypass_node(graph, node, input, output) would succeed.
bool can_bypass(const Graph& graph, const std::string& input, const std::string& output);

// `base`, or `base_<n>` with the smallest n, whichever names nothing in the graph yet. The same
// rule as Graph::unique_value_name without building a set of every name per call, since passes
// name a new constant per match.
std::string fresh_value_name(const Graph& graph, const std::string& base);

// Adds a constant under fresh_value_name(base) (with its type info); returns the name.
std::string add_initializer(Graph& graph, const std::string& base, Tensor value);

// The dims of a value from its type info, or an initializer's shape; nullopt when unknown.
std::optional<std::vector<Dim>> value_dims(const Graph& graph, const std::string& name);
// The same when every dim is static.
std::optional<Shape> value_static_shape(const Graph& graph, const std::string& name);
DType value_dtype(const Graph& graph, const std::string& name);
std::optional<std::size_t> value_rank(const Graph& graph, const std::string& name);

}  // namespace asc::fusion
