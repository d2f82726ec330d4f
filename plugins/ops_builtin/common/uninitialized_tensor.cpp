#include "common/uninitialized_tensor.hpp"

#include <string>

#include <asc/sdk/error.hpp>

namespace asc::ops {

Tensor uninitialized_tensor(DType dtype, const Shape& shape, const Shape& strides) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(num_elements(shape)), dtype_size(dtype), &bytes))
    throw Error(ErrorCode::MemoryAllocationFailed, "tensor of shape " + shape_to_string(shape) + " is too large");
  return Tensor(Buffer::allocate_uninitialized(bytes), 0, dtype, shape,
                strides.empty() ? contiguous_strides(shape) : strides);
}

}  // namespace asc::ops
