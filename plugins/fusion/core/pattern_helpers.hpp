// Matching helpers several fusion passes share.
#pragma once

#include <optional>
#include <string>

#include <asc/sdk/graph.hpp>

#include "core/value_uses.hpp"

namespace asc::fusion {

// For a binary node reading `value` as one operand: the other operand's name (nullopt when the
// node is not binary or reads `value` in both places).
std::optional<std::string> other_operand(const Node& binary, const std::string& value);

// The number of output channels of a Conv (or FusedConv): W's first dim, from its type info or
// its constant value.
std::optional<std::int64_t> conv_output_channels(const Graph& graph, const Node& conv);

// True when `a` and `b` have the same known dims (symbolic dims compare by symbol).
bool same_known_dims(const Graph& graph, const std::string& a, const std::string& b);

}  // namespace asc::fusion
