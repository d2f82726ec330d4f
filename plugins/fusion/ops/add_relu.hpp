// The ResNet epilogue of asc.FusedConv on float32: the residual added, then ReLU (NaN stays NaN),
// in place over a run of elements.
#pragma once

#include <cstdint>

namespace asc::fusion {

// y[i] = relu(y[i] + residual[i]) for i < n; residual may be null (ReLU alone), relu false (the
// Add alone). Compiled for baseline x86-64, AVX2 and AVX-512, picked at load.
void add_relu(float* y, const float* residual, std::int64_t n, bool relu);

}  // namespace asc::fusion
