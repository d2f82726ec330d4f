// ScatterND (reduction from opset 16): a copy of data where each coordinate tuple in the last
// indices dimension selects a block that the matching slice of updates replaces or combines with.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/index_checks.hpp"
#include "tensor/inference_helpers.hpp"
#include "tensor/scatter_reduction.hpp"

namespace asc::ops {
namespace {

void infer_scatter_nd(InferenceContext& context) {
  set_output(context, 0, context.input(0).dtype, input_dims(context, 0));
}

void compute_scatter_nd(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& data = context.input(0);
  const Tensor& indices = context.input(1);
  const Tensor& updates = context.input(2);
  const Shape& data_shape = data.shape();
  const Shape& index_shape = indices.shape();
  const std::size_t depth = index_shape.empty() ? 0 : static_cast<std::size_t>(index_shape.back());
  Shape expected(index_shape.begin(), index_shape.end() - (index_shape.empty() ? 0 : 1));
  if (!index_shape.empty() && depth <= data_shape.size())
    expected.insert(expected.end(), data_shape.begin() + static_cast<std::ptrdiff_t>(depth), data_shape.end());
  if (index_shape.empty() || depth > data_shape.size() || updates.shape() != expected ||
      updates.dtype() != data.dtype())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": indices " + shape_to_string(index_shape) +
                                                " and updates " + shape_to_string(updates.shape()) +
                                                " do not fit data " + shape_to_string(data_shape));
  const ScatterReduction reduction = scatter_reduction(node, context.opset);
  Tensor out = data.clone();
  const Shape strides = contiguous_strides(data_shape);
  std::int64_t block = 1;
  for (std::size_t d = depth; d < data_shape.size(); ++d) block *= data_shape[d];
  const std::int64_t tuples = num_elements(Shape(index_shape.begin(), index_shape.end() - 1));
  const std::vector<std::int64_t> coordinates = indices.to_int64s();
  visit_dtype(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* target = out.data<T>();
    const T* source = updates.data<T>();
    for (std::int64_t t = 0; t < tuples; ++t) {
      std::int64_t offset = 0;
      for (std::size_t k = 0; k < depth; ++k)
        offset += checked_index(coordinates[static_cast<std::size_t>(t) * depth + k], data_shape[k], node) * strides[k];
      for (std::int64_t e = 0; e < block; ++e) scatter_combine(target[offset + e], source[t * block + e], reduction);
    }
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "ScatterND", 11, 17, infer_scatter_nd, compute_scatter_nd, data_movement_cost);

}  // namespace asc::ops
