// Fully static types for one dynamic-shape profile: the graph's inputs fixed to the profile's
// shapes, every node's outputs inferred through the op registry's infer functions in order.
// Small constant values (shape arithmetic: Shape -> Gather -> Concat -> Reshape) are propagated
// by running the operators' kernels on them, as ONNX's data propagation does, so that reshapes
// fed by computed shapes resolve too.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/op_registry.hpp>
#include <map>
#include <string>
#include <unordered_map>

namespace asc::npusim {

// Every value of `graph` (inputs, weights, node outputs) with a static shape. A value's dtype is
// the one the graph declares (the host dtype), else the inferred one. EE1005 names the node and
// the profile (`label`) when a shape cannot be made static.
std::unordered_map<std::string, ValueInfo> infer_static_values(const Graph& graph, const OpRegistry& ops,
                                                               const std::map<std::string, Shape>& input_shapes,
                                                               const std::string& label);

}  // namespace asc::npusim
