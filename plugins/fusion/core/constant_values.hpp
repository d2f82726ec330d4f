// Reading constant operands while matching patterns: initializers, and outputs of Constant
// nodes (so that fusions match whether or not ConstantFolding ran before them).
#pragma once

#include <optional>
#include <string>

#include <asc/sdk/graph.hpp>

#include "core/value_uses.hpp"

namespace asc::fusion {

// The value of `name` when it is an initializer or a Constant node's output, else nullopt.
std::optional<Tensor> constant_value(const Graph& graph, const ValueUses& uses, const std::string& name);
bool is_constant(const Graph& graph, const ValueUses& uses, const std::string& name);
// The single element of a one-element constant, as double; nullopt otherwise.
std::optional<double> scalar_constant(const Graph& graph, const ValueUses& uses, const std::string& name);
// True when `name` is a one-element constant within `tolerance` (relative) of `expected`.
bool is_scalar_constant(const Graph& graph, const ValueUses& uses, const std::string& name, double expected,
                        double tolerance = 1e-6);

// A Constant node's tensor (value, value_float(s), value_int(s)); nullopt for sparse or string
// forms.
std::optional<Tensor> constant_node_value(const Node& node);

}  // namespace asc::fusion
