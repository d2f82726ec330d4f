// Gathers whose source index splits per axis (Pad, Resize in nearest mode): output element
// (i_0, ..., i_r-1) reads the input at sum_d offsets[d][i_d], or takes a fill value where any
// offsets[d][i_d] is negative.
#pragma once

#include <cstdint>
#include <vector>

#include <asc/sdk/tensor.hpp>

namespace asc::ops {

// `out` is preallocated with the input's dtype and shape {offsets[d].size()}; `fill` holds one
// element of that dtype (read only when some offset is negative).
void gather_by_axis_offsets(const Tensor& input, const std::vector<std::vector<std::int64_t>>& offsets,
                            const Tensor& fill, Tensor& out);

}  // namespace asc::ops
