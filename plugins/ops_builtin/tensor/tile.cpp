// Tile: the input repeated repeats[d] times along each dimension d. Reads the input as a view of
// shape [r0, d0, r1, d1, ...] whose repeat dimensions have stride 0.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/inference_helpers.hpp"
#include "tensor/strided_view.hpp"

namespace asc::ops {
namespace {

void check_repeats(const std::vector<std::int64_t>& repeats, std::size_t rank, const Node& node) {
  bool valid = repeats.size() == rank;
  for (const std::int64_t r : repeats) valid = valid && r >= 0;
  if (!valid)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": repeats " + shape_to_string(repeats) +
                                                " do not fit an input of rank " + std::to_string(rank));
}

void infer_tile(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  if (!dims) {
    set_output(context, 0, dtype, std::nullopt);
    return;
  }
  Dims out = unknown_dims(dims->size());
  if (const Tensor* value = context.input_value(1)) {
    const auto repeats = value->to_int64s();
    check_repeats(repeats, dims->size(), context.node);
    for (std::size_t d = 0; d < dims->size(); ++d) {
      const Dim& dim = (*dims)[d];
      if (dim.is_static()) out[d] = dim.value * repeats[d];
      else if (repeats[d] == 1) out[d] = dim;
    }
  }
  set_output(context, 0, dtype, std::move(out));
}

void compute_tile(KernelContext& context) {
  const Tensor& input = context.input(0);
  const auto repeats = context.input(1).to_int64s();
  check_repeats(repeats, input.shape().size(), context.node);
  const Shape strides = contiguous_strides(input.shape());
  Shape view_shape;
  Shape view_strides;
  Shape out_shape;
  for (std::size_t d = 0; d < repeats.size(); ++d) {
    view_shape.insert(view_shape.end(), {repeats[d], input.shape()[d]});
    view_strides.insert(view_strides.end(), {0, strides[d]});
    out_shape.push_back(repeats[d] * input.shape()[d]);
  }
  context.outputs[0] = copy_strided(input, 0, std::move(view_shape), std::move(view_strides)).reshaped(out_shape);
}

}  // namespace

ASC_REGISTER_OP("", "Tile", 11, 17, infer_tile, compute_tile, data_movement_cost);

}  // namespace asc::ops
