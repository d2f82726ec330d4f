#include "tensor/strided_view.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <asc/sdk/parallel.hpp>

#include "common/uninitialized_tensor.hpp"

namespace asc::ops {

Tensor strided_view(const Tensor& base, std::int64_t first, Shape shape, Shape strides) {
  const auto element = static_cast<std::int64_t>(dtype_size(base.dtype()));
  const std::int64_t base_offset = base.view().raw() - base.buffer()->data();
  // An empty view may start one past the end (e.g. a slice starting at the dimension's size).
  if (num_elements(shape) == 0) first = 0;
  return Tensor(base.buffer(), static_cast<std::size_t>(base_offset + first * element), base.dtype(),
                std::move(shape), std::move(strides));
}

namespace {

// Views of fewer elements are copied on one thread (Tensor::clone): starting the pool costs more.
constexpr std::int64_t kParallelElements = std::int64_t{1} << 16;
// Rows shorter than this are copied on one thread too: memcpy per row would not pay.
constexpr std::int64_t kMinRow = 16;
constexpr std::int64_t kRowsPerItem = 64;

}  // namespace

Tensor copy_strided(const Tensor& base, std::int64_t first, Shape shape, Shape strides, int threads) {
  const std::int64_t count = num_elements(shape);
  if (threads <= 1 || count < kParallelElements || shape.empty() || strides.back() != 1 || shape.back() < kMinRow)
    return strided_view(base, first, std::move(shape), std::move(strides)).clone();
  // Single-threaded, Tensor::clone took ViT-B/16's attention Transposes ([197,12,64] ->
  // [12,197,64]) about 6.5 ms a run on one thread while the other waited.
  const auto element = static_cast<std::int64_t>(dtype_size(base.dtype()));
  const std::int64_t row = shape.back(), rows = count / row;
  Tensor out = uninitialized_tensor(base.dtype(), shape);
  const std::byte* in = base.view().raw() + first * element;
  std::byte* to = out.view().raw();
  const std::size_t outer_rank = shape.size() - 1;
  parallel_for(threads, (rows + kRowsPerItem - 1) / kRowsPerItem, [&](std::int64_t item) {
    const std::int64_t begin = item * kRowsPerItem, end = std::min(rows, begin + kRowsPerItem);
    // The row's index over the outer axes, and its first element's offset in the input.
    std::vector<std::int64_t> index(outer_rank);
    std::int64_t offset = 0;
    for (std::int64_t rest = begin, d = static_cast<std::int64_t>(outer_rank); d-- > 0;) {
      index[static_cast<std::size_t>(d)] = rest % shape[static_cast<std::size_t>(d)];
      rest /= shape[static_cast<std::size_t>(d)];
      offset += index[static_cast<std::size_t>(d)] * strides[static_cast<std::size_t>(d)];
    }
    for (std::int64_t r = begin; r < end; ++r) {
      std::memcpy(to + r * row * element, in + offset * element, static_cast<std::size_t>(row * element));
      for (std::size_t d = outer_rank; d-- > 0;) {  // the next row: an odometer over the outer axes
        offset += strides[d];
        if (++index[d] < shape[d]) break;
        offset -= strides[d] * shape[d];
        index[d] = 0;
      }
    }
  });
  return out;
}

}  // namespace asc::ops
