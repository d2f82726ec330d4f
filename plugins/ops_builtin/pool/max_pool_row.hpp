// One output row of a 2-D MaxPool on a channels-last float32 image, the loop the channels-last
// MaxPool runs per row (max_pool.cpp).
#pragma once

#include <cstdint>

#include "pool/pool_common.hpp"

namespace asc::ops {

// row[ow * channels + c] = the max of `image` (H x W x channels) over the taps `rows` along the
// height and pool.taps[2][ow] along the width; minus infinity where a window has no tap. A
// NaN tap after the first does not win (as in the other MaxPool paths). Compiled for baseline
// x86-64, AVX2 and AVX-512, picked at load.
void max_pool_row_channels_last(const PoolWindow& pool, const float* image, std::int64_t channels,
                                const AxisTaps& rows, float* row);

}  // namespace asc::ops
