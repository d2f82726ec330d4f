// Expand: numpy (bidirectional) broadcast of the input to a shape given as input 1; a stride-0
// view of the input, materialised.
#include <algorithm>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"
#include "tensor/strided_view.hpp"

namespace asc::ops {
namespace {

std::vector<std::int64_t> target_shape(const Tensor& shape, const Node& node) {
  auto values = shape.to_int64s();
  for (const std::int64_t value : values)
    if (value < 0)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": shape " + shape_to_string(values) +
                                                  " has a negative dimension");
  return values;
}

void infer_expand(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  if (const Tensor* shape = context.input_value(1)) {
    const Dims target = to_dims(target_shape(*shape, context.node));
    set_output(context, 0, dtype, dims ? std::optional(broadcast_dims(*dims, target, context.node)) : std::nullopt);
    return;
  }
  const auto length = input_length(context, 1);
  if (dims && length) {
    set_output(context, 0, dtype, unknown_dims(std::max(dims->size(), static_cast<std::size_t>(*length))));
    return;
  }
  set_output(context, 0, dtype, std::nullopt);
}

void compute_expand(KernelContext& context) {
  const Tensor& input = context.input(0);
  const Shape shape = broadcast_shapes(input.shape(), target_shape(context.input(1), context.node), context.node);
  context.outputs[0] = copy_strided(input, 0, shape, broadcast_strides(input.shape(), shape));
}

}  // namespace

ASC_REGISTER_OP("", "Expand", 11, 17, infer_expand, compute_expand, data_movement_cost);

}  // namespace asc::ops
