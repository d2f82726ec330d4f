// Output tensors for kernels that write every element. The SDK's Tensor(dtype, shape) zero-fills
// its buffer, an extra pass over memory that costs as much as a simple elementwise kernel does.
#pragma once

#include <asc/sdk/tensor.hpp>

namespace asc::ops {

// A contiguous tensor whose elements are unspecified until written (64-byte aligned, as the
// SDK's own buffers are). Throws EE3001 when the memory cannot be allocated.
Tensor uninitialized_tensor(DType dtype, const Shape& shape);

}  // namespace asc::ops
