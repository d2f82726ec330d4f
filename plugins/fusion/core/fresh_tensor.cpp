#include "core/fresh_tensor.hpp"

#include <asc/sdk/error.hpp>

namespace asc::fusion {
namespace {

constexpr std::size_t kAlignment = 64;

std::size_t round_up(std::size_t value, std::size_t to) { return (value + to - 1) / to * to; }

}  // namespace

// The SDK's large buffers are in memory hinted for transparent huge pages (asc::Buffer).
TensorArena::TensorArena(std::size_t bytes) : size_(bytes) {
  if (bytes != 0) memory_ = Buffer::allocate_uninitialized(bytes);
}

std::size_t TensorArena::footprint(DType dtype, const Shape& shape) {
  return round_up(static_cast<std::size_t>(num_elements(shape)) * dtype_size(dtype), kAlignment);
}

Tensor TensorArena::take(DType dtype, const Shape& shape) {
  const std::size_t bytes = footprint(dtype, shape);
  if (used_ + bytes > size_)
    throw Error(ErrorCode::Internal, "TensorArena: " + std::to_string(bytes) + " bytes requested, " +
                                         std::to_string(size_ - used_) + " left");
  std::byte* start = memory_->data() + used_;
  used_ += bytes;
  const std::size_t nbytes = static_cast<std::size_t>(num_elements(shape)) * dtype_size(dtype);
  return Tensor(Buffer::wrap(memory_, start, nbytes), 0, dtype, shape, contiguous_strides(shape));
}

}  // namespace asc::fusion
