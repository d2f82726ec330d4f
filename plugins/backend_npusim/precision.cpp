#include "precision.hpp"

#include <algorithm>
#include <span>
#include <asc/sdk/half.hpp>
#include <asc/sdk/parallel.hpp>

namespace asc::npusim {

namespace {

// fn(first, count) on `elements` elements in chunks of 128 KB of float32 shared out on `threads`.
template <typename Fn>
void for_each_chunk(std::size_t elements, int threads, const Fn& fn) {
  constexpr std::size_t kChunk = 32768;
  const auto chunks = static_cast<std::int64_t>((elements + kChunk - 1) / kChunk);
  parallel_for(threads, chunks, [&](std::int64_t chunk) {
    const std::size_t first = static_cast<std::size_t>(chunk) * kChunk;
    fn(first, std::min(kChunk, elements - first));
  });
}

// Whether the tensor's elements are one run in memory, in its layout's order.
bool one_run(const Tensor& tensor) {
  return tensor.is_contiguous() || (tensor.rank() >= 3 && tensor.is_channels_last());
}

}  // namespace

void round_float_tensor_to_f16(Tensor& tensor, int threads) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return;
  float* values = tensor.data<float>();
  for_each_chunk(static_cast<std::size_t>(tensor.numel()), threads, [&](std::size_t first, std::size_t count) {
    const std::span<float> part(values + first, count);
    round_to_f16(part, part);
  });
}

void round_range_to_f16(Tensor& tensor, std::int64_t begin, std::int64_t end) {
  if (tensor.dtype() != DType::Float32) return;
  const std::span<float> values(tensor.data<float>() + begin, static_cast<std::size_t>(end - begin));
  round_to_f16(values, values);
}

Tensor rounded_copy(const Tensor& tensor) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return tensor;
  Tensor copy = tensor.contiguous().clone();
  round_float_tensor_to_f16(copy);
  return copy;
}

Tensor rounded(Tensor tensor, int threads) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return tensor;
  if (!one_run(tensor) || tensor.buffer().use_count() != 1) return rounded_copy(tensor);
  round_float_tensor_to_f16(tensor, threads);
  return tensor;
}

Tensor widened_from_f16(const Tensor& tensor, int threads) {
  const Tensor input = one_run(tensor) ? tensor : tensor.contiguous();
  const auto count = static_cast<std::size_t>(input.numel());
  Tensor result(Buffer::allocate_uninitialized(count * sizeof(float)), 0, DType::Float32, input.shape(),
                input.strides());
  const float16* from = input.data<float16>();
  float* to = result.data<float>();
  for_each_chunk(count, threads, [&](std::size_t first, std::size_t n) {
    convert(std::span<const float16>(from + first, n), std::span<float>(to + first, n));
  });
  return result;
}

}  // namespace asc::npusim
