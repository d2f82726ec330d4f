// LpPool (opset 11-17): (sum of |x|^p over the window)^(1/p); padding contributes zero.
#include <cmath>
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "pool/pool_common.hpp"

namespace asc::ops {
namespace {

void lp_pool_infer(InferenceContext& context) {
  infer_pool_output(context, false);
}

template <class T>
void lp_pool(const PoolWindow& pool, double p, const T* x, T* y) {
  pool_window_sums(
      pool, x, y, [p](double value) { return std::pow(std::abs(value), p); },
      [p](double sum, const AxisTaps&, const AxisTaps&, const AxisTaps&) { return static_cast<T>(std::pow(sum, 1.0 / p)); });
}

void lp_pool_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const std::int64_t p = node.attributes.get_int("p", 2);
  if (p < 1) throw Error(ErrorCode::InvalidOperator, node.describe() + ": attribute 'p' must be >= 1");
  const PoolWindow pool = pool_window(node, x_in.shape(), false);
  const Tensor x = to_nn_compute_dtype(x_in);
  Tensor y(compute_dtype, pool.output_shape);
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      lp_pool<T>(pool, static_cast<double>(p), x.data<T>(), y.data<T>());
    else
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() + ": LpPool supports float16, bfloat16, float32 and float64, not " +
                      std::string(dtype_name(dtype)));
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

}  // namespace

ASC_REGISTER_OP("", "LpPool", 11, 17, lp_pool_infer, lp_pool_compute, pool_cost);

}  // namespace asc::ops
