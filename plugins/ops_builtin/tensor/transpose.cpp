// Transpose: a permuted strided view of the input, materialised. The default perm reverses the
// dimensions.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/inference_helpers.hpp"
#include "tensor/strided_view.hpp"

namespace asc::ops {
namespace {

std::vector<std::int64_t> permutation(const Node& node, std::size_t rank) {
  std::vector<std::int64_t> perm = node.attributes.get_ints("perm");
  if (!node.attributes.has("perm")) {
    for (std::size_t d = rank; d-- > 0;) perm.push_back(static_cast<std::int64_t>(d));
    return perm;
  }
  std::vector<bool> seen(rank, false);
  bool valid = perm.size() == rank;
  for (const std::int64_t axis : perm) {
    valid = valid && axis >= 0 && axis < static_cast<std::int64_t>(rank) && !seen[static_cast<std::size_t>(axis)];
    if (valid) seen[static_cast<std::size_t>(axis)] = true;
  }
  if (!valid)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": perm " + shape_to_string(perm) +
                                                " is not a permutation of " + std::to_string(rank) + " axes");
  return perm;
}

void infer_transpose(InferenceContext& context) {
  const auto dims = input_dims(context, 0);
  if (!dims) {
    const auto perm = context.attrs().get_ints("perm");
    set_output(context, 0, context.input(0).dtype,
               perm.empty() ? std::nullopt : std::optional(unknown_dims(perm.size())));
    return;
  }
  Dims out;
  for (const std::int64_t axis : permutation(context.node, dims->size()))
    out.push_back((*dims)[static_cast<std::size_t>(axis)]);
  set_output(context, 0, context.input(0).dtype, std::move(out));
}

void compute_transpose(KernelContext& context) {
  const Tensor& input = context.input(0);
  const Shape strides = contiguous_strides(input.shape());
  Shape shape;
  Shape permuted_strides;
  for (const std::int64_t axis : permutation(context.node, input.shape().size())) {
    shape.push_back(input.shape()[static_cast<std::size_t>(axis)]);
    permuted_strides.push_back(strides[static_cast<std::size_t>(axis)]);
  }
  context.outputs[0] = copy_strided(input, 0, std::move(shape), std::move(permuted_strides), context.threads);
}

}  // namespace

ASC_REGISTER_OP("", "Transpose", 11, 17, infer_transpose, compute_transpose, data_movement_cost);

}  // namespace asc::ops
