// Index inputs (Gather, GatherElements, GatherND, ScatterND, ScatterElements) may be negative,
// counting from the end; anything outside [-dim, dim) is an invalid operator input.
#pragma once

#include <cstdint>
#include <string>

#include <asc/sdk/error.hpp>
#include <asc/sdk/graph.hpp>

namespace asc::ops {

inline std::int64_t checked_index(std::int64_t index, std::int64_t dim, const Node& node) {
  const std::int64_t normalized = index < 0 ? index + dim : index;
  if (normalized < 0 || normalized >= dim)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": index " + std::to_string(index) +
                                                " is out of range for a dimension of size " + std::to_string(dim));
  return normalized;
}

}  // namespace asc::ops
