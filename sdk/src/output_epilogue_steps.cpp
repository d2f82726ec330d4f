// apply_epilogue_steps (op_registry.hpp): one loop per case, so that each vectorises without a
// test per element, compiled for baseline x86-64, AVX2 and AVX-512 and picked at load (out of the
// unity batches, as every file with cloned loops: no other file's helpers inlined into a clone).
#include <algorithm>
#include <span>

#include <asc/sdk/half.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/vector_math.hpp>

namespace asc {
namespace {

// `value < 0 ? 0 : value` rather than a max instruction, whose NaN rule would turn NaN into 0.
ASC_VECTOR_CLONES void add_relu(float* y, const float* addend, std::int64_t n) {
  if (addend == nullptr) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = y[i] < 0.0f ? 0.0f : y[i];
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) {
    const float value = y[i] + addend[i];
    y[i] = value < 0.0f ? 0.0f : value;
  }
}

// std::max(v, low) is `v < low ? low : v`: a NaN v stays (the compare is false), as in Clip.
ASC_VECTOR_CLONES void add_clip(float* y, const float* addend, std::int64_t n, float low, float high) {
  if (addend == nullptr) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(y[i], low), high);
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(y[i] + addend[i], low), high);
}

ASC_VECTOR_CLONES void add_addend(float* y, const float* addend, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] += addend[i];
}

}  // namespace

void apply_epilogue_steps(const OutputEpilogueSteps& steps, float* y, const float* addend, std::int64_t n) {
  switch (steps.activation) {
    case OutputEpilogueSteps::Activation::Relu:
      add_relu(y, addend, n);
      break;
    case OutputEpilogueSteps::Activation::Clip:
      add_clip(y, addend, n, steps.low, steps.high);
      break;
    case OutputEpilogueSteps::Activation::None:
      if (addend != nullptr) add_addend(y, addend, n);
      break;
  }
  if (steps.round_to_f16) {
    const std::span<float> values(y, static_cast<std::size_t>(n));
    round_to_f16(values, values);
  }
}

}  // namespace asc
