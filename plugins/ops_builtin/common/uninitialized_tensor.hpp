// Output tensors for kernels that write every element. The SDK's Tensor(dtype, shape) zero-fills
// its buffer, an extra pass over memory that costs as much as a simple elementwise kernel does.
#pragma once

#include <asc/sdk/tensor.hpp>

namespace asc::ops {

// A tensor whose elements are unspecified until written (Buffer::allocate_uninitialized: 64-byte
// aligned, large ones in huge pages), contiguous or laid out by `strides` (a dense order such as
// channels_last_strides(shape)). Throws EE3001 when the memory cannot be allocated.
Tensor uninitialized_tensor(DType dtype, const Shape& shape, const Shape& strides = {});

}  // namespace asc::ops
