#include "ops/gelu_math.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>
#include <asc/sdk/vector_math.hpp>

namespace asc::fusion {
namespace {

double gelu_exact(double x) { return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2)); }

double gelu_tanh(double x) {
  const double k = std::sqrt(2.0 / std::numbers::pi);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

// The exact form on float32, in float with a vectorised erf (within 3 ulp; 1 + erf is then
// within a few ulp of the double result's).
ASC_VECTOR_CLONES void gelu_exact_f32(const float* in, float* out, std::int64_t count) {
  constexpr float kInverseSqrt2 = 0.70710678118654752f;
#pragma omp simd
  for (std::int64_t i = 0; i < count; ++i) out[i] = 0.5f * in[i] * (1.0f + vector_erf(in[i] * kInverseSqrt2));
}

}  // namespace

Tensor gelu(const Tensor& x, bool tanh_approximation, const Node& node, int threads) {
  if (!is_floating(x.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": GELU needs a floating input, got " + std::string(dtype_name(x.dtype())));
  Tensor y(x.dtype(), x.shape());
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, float16> ||
                  std::is_same_v<T, bfloat16>) {
      const T* in = x.data<T>();
      T* out = y.data<T>();
      const std::int64_t count = x.numel();
      constexpr std::int64_t kChunk = 16384;
      parallel_for(threads, (count + kChunk - 1) / kChunk, [&](std::int64_t chunk) {
        const std::int64_t end = std::min(count, (chunk + 1) * kChunk);
        if constexpr (std::is_same_v<T, float>) {
          if (!tanh_approximation) return gelu_exact_f32(in + chunk * kChunk, out + chunk * kChunk, end - chunk * kChunk);
        }
        for (std::int64_t i = chunk * kChunk; i < end; ++i) {
          double v;
          if constexpr (std::is_same_v<T, double>) v = in[i];
          else v = static_cast<float>(in[i]);
          out[i] = static_cast<T>(tanh_approximation ? gelu_tanh(v) : gelu_exact(v));
        }
      });
    }
  });
  return y;
}

}  // namespace asc::fusion
