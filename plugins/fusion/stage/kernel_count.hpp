// The kernel count ATC reports: nodes that launch device work. Constant nodes (their value is
// part of the model) and metadata-only operators (Identity, inference Dropout, Reshape,
// Flatten, Squeeze, Unsqueeze, Shape, Size: the cost model places them on no unit, since only
// the tensor descriptor changes) launch no kernel. Every other node, fused ones included,
// is one kernel.
#pragma once

#include <cstddef>

#include <asc/sdk/graph.hpp>

namespace asc::fusion {

bool launches_kernel(const Node& node);
std::size_t count_kernels(const Graph& graph);

}  // namespace asc::fusion
