// LRN (opset 11-17): local response normalisation across channels,
// y = x / (bias + alpha / size * sum of x^2 over the channel window)^beta, the window covering
// channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "normalization/norm_common.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void lrn_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

struct LrnParameters {
  std::int64_t size = 1;
  double alpha = 1e-4;
  double beta = 0.75;
  double bias = 1.0;
};

LrnParameters read_parameters(const Node& node) {
  LrnParameters p;
  p.size = node.attributes.require_int("size");
  if (p.size < 1) lrn_fail(node, "attribute 'size' must be >= 1");
  p.alpha = node.attributes.get_float("alpha", 1e-4f);
  p.beta = node.attributes.get_float("beta", 0.75f);
  p.bias = node.attributes.get_float("bias", 1.0f);
  return p;
}

void lrn_infer(InferenceContext& context) {
  read_parameters(context.node);
  infer_same_as_input(context);
}

template <class T>
void lrn(const T* x, T* y, std::int64_t batch, std::int64_t channels, std::int64_t plane,
         const LrnParameters& p) {
  const std::int64_t before = (p.size - 1) / 2;
  const std::int64_t after = p.size - 1 - before;
  std::vector<double> squares(static_cast<std::size_t>(plane));
  for (std::int64_t n = 0; n < batch; ++n) {
    const T* image = x + n * channels * plane;
    for (std::int64_t c = 0; c < channels; ++c) {
      std::fill(squares.begin(), squares.end(), 0.0);
      const std::int64_t first = std::max<std::int64_t>(0, c - before);
      const std::int64_t last = std::min<std::int64_t>(channels - 1, c + after);
      for (std::int64_t k = first; k <= last; ++k) {
        const T* in = image + k * plane;
        for (std::int64_t i = 0; i < plane; ++i)
          squares[i] += static_cast<double>(in[i]) * static_cast<double>(in[i]);
      }
      const T* in = image + c * plane;
      T* out = y + (n * channels + c) * plane;
      for (std::int64_t i = 0; i < plane; ++i)
        out[i] =
            static_cast<T>(static_cast<double>(in[i]) /
                           std::pow(p.bias + p.alpha / static_cast<double>(p.size) * squares[i], p.beta));
    }
  }
}

void lrn_compute(KernelContext& context) {
  const Node& node = context.node;
  const LrnParameters parameters = read_parameters(node);
  const Tensor& x_in = context.input(0);
  if (x_in.rank() < 2) lrn_fail(node, "X must have at least rank 2 (N, C, ...)");
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const std::int64_t batch = x_in.shape()[0];
  const std::int64_t channels = x_in.shape()[1];
  const std::int64_t plane = batch * channels == 0 ? 0 : x_in.numel() / (batch * channels);
  const Tensor x = to_nn_compute_dtype(x_in);
  Tensor y(compute_dtype, x.shape());
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      lrn(x.data<T>(), y.data<T>(), batch, channels, plane, parameters);
    else
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() + ": LRN supports float16, bfloat16, float32 and float64, not " +
                      std::string(dtype_name(dtype)));
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

// size squares and adds, then a power and a divide per element.
CostFacts lrn_cost(const CostContext& context) {
  const double size = static_cast<double>(context.node.attributes.get_int("size", 1));
  return normalization_cost(context, 2.0 * size + 3.0);
}

}  // namespace

ASC_REGISTER_OP("", "LRN", 11, 17, lrn_infer, lrn_compute, lrn_cost);

}  // namespace asc::ops
