// The in-place epilogues of asc.FusedConv on float32, over a run of elements: the residual added,
// then ReLU (ResNet) or Clip (MobileNet's ReLU6); NaN stays NaN, as in the Relu and Clip kernels.
#pragma once

#include <cstdint>

namespace asc::fusion {

// y[i] = relu(y[i] + residual[i]) for i < n; residual may be null (ReLU alone), relu false (the
// Add alone). Compiled for baseline x86-64, AVX2 and AVX-512, picked at load.
void add_relu(float* y, const float* residual, std::int64_t n, bool relu);

// y[i] = min(max(y[i] + residual[i], low), high) for i < n, with std::max and std::min as the Clip
// kernel applies them; residual may be null.
void add_clip(float* y, const float* residual, std::int64_t n, float low, float high);

}  // namespace asc::fusion
