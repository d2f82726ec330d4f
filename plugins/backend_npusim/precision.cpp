#include "precision.hpp"

#include <algorithm>
#include <span>
#include <asc/sdk/half.hpp>
#include <asc/sdk/parallel.hpp>

namespace asc::npusim {

void round_float_tensor_to_f16(Tensor& tensor, int threads) {
  if (!tensor.defined() || tensor.dtype() != DType::Float32) return;
  const std::span<float> values(tensor.data<float>(), static_cast<std::size_t>(tensor.numel()));
  constexpr std::size_t kChunk = 32768;  // elements per work item (128 KB)
  const auto chunks = static_cast<std::int64_t>((values.size() + kChunk - 1) / kChunk);
  parallel_for(threads, chunks, [&](std::int64_t chunk) {
    const auto part =
        values.subspan(static_cast<std::size_t>(chunk) * kChunk,
                       std::min(kChunk, values.size() - static_cast<std::size_t>(chunk) * kChunk));
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
  const bool one_run = tensor.is_contiguous() || (tensor.rank() >= 3 && tensor.is_channels_last());
  if (!one_run || tensor.buffer().use_count() != 1) return rounded_copy(tensor);
  round_float_tensor_to_f16(tensor, threads);
  return tensor;
}

}  // namespace asc::npusim
