#include "core/fresh_tensor.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

#include <asc/sdk/error.hpp>

namespace asc::fusion {
namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t round_up(std::size_t value, std::size_t to) { return (value + to - 1) / to * to; }

}  // namespace

TensorArena::TensorArena(std::size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  const std::size_t rounded = round_up(bytes, kHugePage);
  void* memory = std::aligned_alloc(kHugePage, rounded);
  if (memory == nullptr) throw std::bad_alloc();
  madvise(memory, rounded, MADV_HUGEPAGE);  // a hint: without transparent huge pages nothing changes
  memory_.reset(static_cast<std::byte*>(memory), [](std::byte* p) { std::free(p); });
}

std::size_t TensorArena::footprint(DType dtype, const Shape& shape) {
  return round_up(static_cast<std::size_t>(num_elements(shape)) * dtype_size(dtype), kAlignment);
}

Tensor TensorArena::take(DType dtype, const Shape& shape) {
  const std::size_t bytes = footprint(dtype, shape);
  if (used_ + bytes > size_)
    throw Error(ErrorCode::Internal, "TensorArena: " + std::to_string(bytes) + " bytes requested, " +
                                         std::to_string(size_ - used_) + " left");
  std::byte* start = memory_.get() + used_;
  used_ += bytes;
  const std::size_t nbytes = static_cast<std::size_t>(num_elements(shape)) * dtype_size(dtype);
  return Tensor(Buffer::wrap(memory_, start, nbytes), 0, dtype, shape, contiguous_strides(shape));
}

}  // namespace asc::fusion
