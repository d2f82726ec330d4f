#include "common/uninitialized_tensor.hpp"

#include <cstdlib>
#include <memory>
#include <string>

#include <asc/sdk/error.hpp>

namespace asc::ops {

Tensor uninitialized_tensor(DType dtype, const Shape& shape, const Shape& strides) {
  constexpr std::size_t kAlignment = 64;
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(num_elements(shape)), dtype_size(dtype), &bytes))
    throw Error(ErrorCode::MemoryAllocationFailed, "tensor of shape " + shape_to_string(shape) + " is too large");
  // aligned_alloc needs a multiple of the alignment; never zero, so the data pointer is never null.
  const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment + (bytes == 0 ? kAlignment : 0);
  void* memory = std::aligned_alloc(kAlignment, rounded);
  if (memory == nullptr)
    throw Error(ErrorCode::MemoryAllocationFailed, "cannot allocate " + std::to_string(bytes) + " bytes");
  std::shared_ptr<const void> owner(memory, [](const void* p) { std::free(const_cast<void*>(p)); });
  auto* data = static_cast<std::byte*>(memory);
  return Tensor(Buffer::wrap(std::move(owner), data, bytes), 0, dtype, shape,
                strides.empty() ? contiguous_strides(shape) : strides);
}

}  // namespace asc::ops
