// ScatterElements (reduction from opset 16): a copy of data where
// output[i with i[axis] replaced by indices[i]] takes (or combines with) updates[i].
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/index_checks.hpp"
#include "tensor/inference_helpers.hpp"
#include "tensor/scatter_reduction.hpp"

namespace asc::ops {
namespace {

void infer_scatter_elements(InferenceContext& context) {
  set_output(context, 0, context.input(0).dtype, input_dims(context, 0));
}

void compute_scatter_elements(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& data = context.input(0);
  const Tensor& indices = context.input(1);
  const Tensor& updates = context.input(2);
  const auto axis = static_cast<std::size_t>(normalize_axis(context.attrs().get_int("axis", 0), data.rank(), node));
  bool fits = indices.rank() == data.rank() && updates.shape() == indices.shape() && updates.dtype() == data.dtype();
  for (std::size_t d = 0; fits && d < data.shape().size(); ++d) fits = d == axis || indices.shape()[d] <= data.shape()[d];
  if (!fits)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": indices " + shape_to_string(indices.shape()) +
                                                " and updates " + shape_to_string(updates.shape()) +
                                                " do not fit data " + shape_to_string(data.shape()));
  const ScatterReduction reduction = scatter_reduction(node, context.opset);
  Tensor out = data.clone();
  const std::vector<std::int64_t> picks = indices.to_int64s();
  Shape data_strides = contiguous_strides(data.shape());
  const std::int64_t axis_stride = data_strides[axis];
  const std::int64_t dim = data.shape()[axis];
  data_strides[axis] = 0;
  visit_dtype(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* target = out.data<T>();
    const T* source = updates.data<T>();
    std::size_t n = 0;
    for_each_index(indices.shape(), {data_strides}, [&](const std::vector<std::int64_t>& offsets) {
      const std::int64_t index = checked_index(picks[n], dim, node);
      scatter_combine(target[offsets[0] + index * axis_stride], source[n], reduction);
      ++n;
    });
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "ScatterElements", 11, 17, infer_scatter_elements, compute_scatter_elements, data_movement_cost);

}  // namespace asc::ops
