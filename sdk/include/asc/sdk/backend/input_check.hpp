// Backend support (since SDK 0.3): checks the tensors a caller passes against the graph's
// declared inputs, with the SDK's error codes.
#pragma once

#include "asc/sdk/backend.hpp"
#include "asc/sdk/graph.hpp"
#include <vector>

namespace asc {

// Throws EE8002 naming the first missing input, EE8003 naming the input for a name that is not
// a graph input, a wrong dtype or rank, a static dimension that differs, or one symbolic
// dimension bound to two sizes.
void check_inputs(const std::vector<ValueInfo>& declared, const TensorMap& provided);

}  // namespace asc
