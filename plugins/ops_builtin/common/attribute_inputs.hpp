// Operators whose parameters moved from attributes to inputs across opsets (Squeeze, ReduceSum,
// Split, Slice, Clip, Pad, ...) read them through these helpers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

// The int64 list from input `input_index` when present (any integer dtype), else from attribute
// `attribute` when present, else std::nullopt.
std::optional<std::vector<std::int64_t>> ints_from_input_or_attribute(const KernelContext& context,
                                                                      std::size_t input_index,
                                                                      const std::string& attribute);
// Same at inference time: std::nullopt also when the input exists but its value is not known.
std::optional<std::vector<std::int64_t>> ints_from_input_or_attribute(const InferenceContext& context,
                                                                      std::size_t input_index,
                                                                      const std::string& attribute);

}  // namespace asc::ops
