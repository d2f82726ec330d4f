// Copying a strided view into contiguous memory (Tensor::clone of a transposed or sliced view),
// row by row: adjacent dimensions that are laid out as one are merged first, so a row is as long
// as the layout allows, and each row is one memcpy when its elements are adjacent.
#pragma once

#include <cstddef>
#include <cstdint>

#include "asc/sdk/tensor.hpp"

namespace asc::detail {

// Writes the elements of `view` to `out` in row-major order (view.nbytes() bytes).
void copy_strided(const TensorView& view, std::byte* out);

}  // namespace asc::detail
