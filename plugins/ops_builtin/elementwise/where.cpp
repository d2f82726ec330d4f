// Where: output = condition ? X : Y, all three broadcast together (numpy rules).
#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

void where_infer(InferenceContext& context) {
  const DType condition = context.input(0).dtype;
  if (condition != DType::Undefined && condition != DType::Bool)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": condition must be bool, got " +
                                                std::string(dtype_name(condition)));
  require_same_input_dtypes(context, 1, 3);
  context.outputs[0].dtype = context.input(1).dtype;
  context.outputs[0].shape = broadcast_input_dims(context);
}

void where_compute(KernelContext& context) {
  const Tensor& condition = context.input(0);
  const Tensor& x = context.input(1);
  const Tensor& y = context.input(2);
  if (condition.dtype() != DType::Bool)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": condition must be bool");
  if (x.dtype() != y.dtype())
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": X and Y have different dtypes");
  const Shape shape = broadcast_input_shapes(context);
  const BroadcastPlan plan = plan_broadcast(shape, {&condition.shape(), &x.shape(), &y.shape()});
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor output(x.dtype(), shape);
    const bool* c_data = condition.data<bool>();
    const T* x_data = x.data<T>();
    const T* y_data = y.data<T>();
    T* out_data = output.data<T>();
    const std::int64_t sc = plan.inner_step[0], sx = plan.inner_step[1], sy = plan.inner_step[2];
    for_each_run(plan, [&](const std::vector<std::int64_t>& offsets) {
      const bool* c = c_data + offsets[0];
      const T* xs = x_data + offsets[1];
      const T* ys = y_data + offsets[2];
      T* out = out_data + offsets[3];
      for (std::int64_t i = 0; i < plan.inner; ++i) out[i] = c[i * sc] ? xs[i * sx] : ys[i * sy];
    });
    context.outputs[0] = std::move(output);
  });
}

}  // namespace

ASC_REGISTER_OP("", "Where", 11, 17, where_infer, where_compute, per_element_cost(element_flops::kSimple));

}  // namespace asc::ops
