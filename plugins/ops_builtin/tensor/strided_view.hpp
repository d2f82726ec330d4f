// Transpose, Slice, Expand, Tile and the depth/space rearrangements are strided views of their
// input; materialising the view (Tensor::clone) is the whole kernel.
#pragma once

#include <cstdint>

#include <asc/sdk/tensor.hpp>

namespace asc::ops {

// A view of contiguous `base`'s buffer starting at element `first`, with `shape` and element
// `strides` (strides may be 0 to repeat, or negative to walk backwards).
Tensor strided_view(const Tensor& base, std::int64_t first, Shape shape, Shape strides);

// strided_view(...).clone(): a new contiguous tensor.
Tensor copy_strided(const Tensor& base, std::int64_t first, Shape shape, Shape strides);

}  // namespace asc::ops
