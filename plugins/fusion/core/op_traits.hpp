// What the passes need to know about operator kinds beyond their definitions.
#pragma once

#include <asc/sdk/graph.hpp>

namespace asc::fusion {

bool is_default_domain(const Node& node);
bool is_op(const Node* node, const char* op_type);  // default-domain op of that type
// Operators whose result differs between runs (random generators): never folded or merged.
bool is_nondeterministic(const Node& node);
bool has_subgraph(const Node& node);
// One output element from the same-position elements of the (broadcast) inputs, so a chain of
// them can run as one vector kernel.
bool is_elementwise(const Node& node);
// Reshape, Flatten, Squeeze, Unsqueeze: only the shape changes.
bool is_reshape_like(const Node& node);

}  // namespace asc::fusion
