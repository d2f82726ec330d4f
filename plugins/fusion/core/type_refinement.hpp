// Re-inferring a node's output types from its inputs' current types and constant values, with
// the registered inference functions. The parser's ONNX shape inference cannot see through
// Reshape targets computed from Shape(); once constant folding has made them constants, this
// recovers the shapes downstream (and with them the Shape nodes that fold next).
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/op_registry.hpp>

namespace asc::fusion {

// Updates the type info of `node`'s outputs where inference knows more (a rank where there was
// none, a static or symbolic dim where there was an unknown one); conflicting static dims keep
// the old value. Returns whether anything changed. Inference failures change nothing.
bool refine_output_types(Graph& graph, const Node& node, const OpRegistry& ops);

// Merges `inferred` into `current` by the same rule; returns whether `current` changed.
bool merge_value_info(ValueInfo& current, const ValueInfo& inferred);

}  // namespace asc::fusion
