// AveragePool (opset 11-17): N-D window mean; count_include_pad decides whether explicit padding
// counts in the divisor (positions beyond it, reached only with ceil_mode, never do).
#include <string>
#include <type_traits>

#include <asc/sdk/error.hpp>

#include "common/nn_compute_dtype.hpp"
#include "pool/pool_common.hpp"

namespace asc::ops {
namespace {

void average_pool_infer(InferenceContext& context) {
  infer_pool_output(context, false);
}

template <class T>
void average_pool(const PoolWindow& pool, bool count_include_pad, const T* x, T* y) {
  pool_window_sums(
      pool, x, y, [](double value) { return value; },
      [&](double sum, const AxisTaps& td, const AxisTaps& th, const AxisTaps& tw) {
        const std::int64_t divisor = count_include_pad ? td.padded_count * th.padded_count * tw.padded_count
                                                       : td.count * th.count * tw.count;
        return divisor == 0 ? T(0) : static_cast<T>(sum / static_cast<double>(divisor));
      });
}

void average_pool_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x_in = context.input(0);
  const DType dtype = x_in.dtype();
  const DType compute_dtype = nn_compute_dtype(dtype);
  const std::int64_t count_include_pad = node.attributes.get_int("count_include_pad", 0);
  if (count_include_pad != 0 && count_include_pad != 1)
    throw Error(ErrorCode::InvalidOperator,
                node.describe() + ": attribute 'count_include_pad' must be 0 or 1");
  const PoolWindow pool = pool_window(node, x_in.shape(), false);
  const Tensor x = to_nn_compute_dtype(x_in);
  Tensor y(compute_dtype, pool.output_shape);
  visit_dtype(compute_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
      average_pool<T>(pool, count_include_pad == 1, x.data<T>(), y.data<T>());
    else
      throw Error(ErrorCode::OperatorDtypeUnsupported,
                  node.describe() + ": AveragePool supports float16, bfloat16, float32 and float64, not " +
                      std::string(dtype_name(dtype)));
  });
  context.outputs[0] = compute_dtype == dtype ? y : y.cast(dtype);
}

}  // namespace

ASC_REGISTER_OP("", "AveragePool", 11, 17, average_pool_infer, average_pool_compute, pool_cost);

}  // namespace asc::ops
