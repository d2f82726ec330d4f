#include "ops/add_relu.hpp"

#include <algorithm>

#include <asc/sdk/vector_math.hpp>

namespace asc::fusion {

// `value < 0 ? 0 : value` rather than a max instruction, whose NaN rule would turn NaN into 0;
// one loop per case so that each vectorises without a test per element.
ASC_VECTOR_CLONES void add_relu(float* y, const float* residual, std::int64_t n, bool relu) {
  if (residual == nullptr) {
    if (relu)
      for (std::int64_t i = 0; i < n; ++i) y[i] = y[i] < 0.0f ? 0.0f : y[i];
    return;
  }
  if (relu) {
    for (std::int64_t i = 0; i < n; ++i) {
      const float value = y[i] + residual[i];
      y[i] = value < 0.0f ? 0.0f : value;
    }
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) y[i] += residual[i];
}

// std::max(v, low) is `v < low ? low : v`: a NaN v stays (the compare is false), as in Clip.
ASC_VECTOR_CLONES void add_clip(float* y, const float* residual, std::int64_t n, float low, float high) {
  if (residual == nullptr) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(y[i], low), high);
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(y[i] + residual[i], low), high);
}

}  // namespace asc::fusion
