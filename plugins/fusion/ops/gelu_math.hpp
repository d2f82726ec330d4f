// GELU, exact (0.5·x·(1+erf(x/√2))) or with the tanh approximation
// (0.5·x·(1+tanh(√(2/π)·(x+0.044715·x³)))), on floating tensors, computed in double per element;
// chunks of elements are shared between `threads` (asc::parallel_for).
#pragma once

#include <asc/sdk/graph.hpp>

namespace asc::fusion {

Tensor gelu(const Tensor& x, bool tanh_approximation, const Node& node, int threads);

}  // namespace asc::fusion
