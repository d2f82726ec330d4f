// Transpose, Slice, Expand, Tile and the depth/space rearrangements are strided views of their
// input; materialising the view (Tensor::clone) is the whole kernel.
#pragma once

#include <cstdint>

#include <asc/sdk/tensor.hpp>

namespace asc::ops {

// A view of contiguous `base`'s buffer starting at element `first`, with `shape` and element
// `strides` (strides may be 0 to repeat, or negative to walk backwards).
Tensor strided_view(const Tensor& base, std::int64_t first, Shape shape, Shape strides);

// strided_view(...).clone(): a new contiguous tensor. On `threads` when the view is large and
// its last axis is contiguous (a Transpose that keeps the last axis, a Slice or Split of the
// other axes): rows of it are copied in parallel. The bytes are the same either way.
Tensor copy_strided(const Tensor& base, std::int64_t first, Shape shape, Shape strides, int threads = 1);

}  // namespace asc::ops
