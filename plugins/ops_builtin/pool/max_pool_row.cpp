#include "pool/max_pool_row.hpp"

#include <algorithm>
#include <limits>

#include <asc/sdk/vector_math.hpp>

namespace asc::ops {

ASC_VECTOR_CLONES void max_pool_row_channels_last(const PoolWindow& pool, const float* image, std::int64_t channels,
                                                  const AxisTaps& rows, float* row) {
  const Window3& w = pool.window;
  for (std::int64_t ow = 0; ow < w.output[2]; ++ow) {
    const AxisTaps& columns = pool.taps[2][ow];
    float* best = row + ow * channels;
    if (rows.count == 0 || columns.count == 0) {
      std::fill(best, best + channels, -std::numeric_limits<float>::infinity());
      continue;
    }
    bool first = true;
    for (std::int64_t j = 0, h = rows.first; j < rows.count; ++j, h += rows.step)
      for (std::int64_t k = 0, c = columns.first; k < columns.count; ++k, c += columns.step) {
        const float* tap = image + (h * w.input[2] + c) * channels;
        if (first) {
          std::copy(tap, tap + channels, best);
          first = false;
          continue;
        }
        for (std::int64_t ch = 0; ch < channels; ++ch) best[ch] = tap[ch] > best[ch] ? tap[ch] : best[ch];
      }
  }
}

}  // namespace asc::ops
