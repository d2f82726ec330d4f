#include "pool/max_pool_row.hpp"

#include <algorithm>
#include <limits>

#include <asc/sdk/vector_math.hpp>

namespace asc::ops {

namespace {

// The channels [0, kBlock) of one output position, their maxima held in registers across the
// taps rather than stored and reloaded at each (ResNet's 64 channels are one block).
constexpr std::int64_t kBlock = 64;

// best[c] for c < `count` (kBlock, or the last block's rest): the first tap, then each later tap
// that is greater.
template <std::int64_t kCount>
inline void block_max(const float* image, std::int64_t row_stride, std::int64_t channels, const AxisTaps& rows,
                      const AxisTaps& columns, std::int64_t count, float* best) {
  const std::int64_t n = kCount > 0 ? kCount : count;
  float acc[kBlock];
  const float* first = image + rows.first * row_stride + columns.first * channels;
  for (std::int64_t c = 0; c < n; ++c) acc[c] = first[c];
  for (std::int64_t j = 0, h = rows.first; j < rows.count; ++j, h += rows.step)
    for (std::int64_t k = 0, w = columns.first; k < columns.count; ++k, w += columns.step) {
      if (j == 0 && k == 0) continue;
      const float* tap = image + h * row_stride + w * channels;
      for (std::int64_t c = 0; c < n; ++c) acc[c] = tap[c] > acc[c] ? tap[c] : acc[c];
    }
  for (std::int64_t c = 0; c < n; ++c) best[c] = acc[c];
}

}  // namespace

ASC_VECTOR_CLONES void max_pool_row_channels_last(const PoolWindow& pool, const float* image, std::int64_t channels,
                                                  const AxisTaps& rows, float* row) {
  const Window3& w = pool.window;
  const std::int64_t row_stride = w.input[2] * channels;
  for (std::int64_t ow = 0; ow < w.output[2]; ++ow) {
    const AxisTaps& columns = pool.taps[2][ow];
    float* best = row + ow * channels;
    if (rows.count == 0 || columns.count == 0) {
      std::fill(best, best + channels, -std::numeric_limits<float>::infinity());
      continue;
    }
    std::int64_t c = 0;
    for (; c + kBlock <= channels; c += kBlock)
      block_max<kBlock>(image + c, row_stride, channels, rows, columns, kBlock, best + c);
    if (c < channels) block_max<0>(image + c, row_stride, channels, rows, columns, channels - c, best + c);
  }
}

}  // namespace asc::ops
