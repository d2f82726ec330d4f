// Split along one axis into the node's outputs. The sizes come from the 'split' attribute before
// opset 13 and from input 1 from 13; without them the dimension is cut into equal parts, the
// last one smaller when it does not divide evenly.
#include <asc/sdk/error.hpp>

#include "common/attribute_inputs.hpp"
#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/inference_helpers.hpp"
#include "tensor/strided_view.hpp"

namespace asc::ops {
namespace {

const char* split_attribute(std::int64_t opset) { return opset < 13 ? "split" : ""; }

std::vector<std::int64_t> split_sizes(const std::optional<std::vector<std::int64_t>>& requested, std::int64_t dim,
                                      std::size_t outputs, const Node& node) {
  if (requested) {
    std::int64_t total = 0;
    for (const std::int64_t size : *requested) {
      if (size < 0)
        throw Error(ErrorCode::InvalidOperator, node.describe() + ": negative split size " + std::to_string(size));
      total += size;
    }
    if (requested->size() != outputs || total != dim)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": split " + shape_to_string(*requested) +
                                                  " does not cut a dimension of " + std::to_string(dim) + " into " +
                                                  std::to_string(outputs) + " outputs");
    return *requested;
  }
  const auto count = static_cast<std::int64_t>(outputs);
  const std::int64_t chunk = (dim + count - 1) / count;
  std::vector<std::int64_t> sizes(outputs, chunk);
  sizes.back() = dim - chunk * (count - 1);
  if (sizes.back() < 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": cannot split a dimension of " + std::to_string(dim) +
                                                " into " + std::to_string(outputs) + " parts");
  return sizes;
}

void infer_split(InferenceContext& context) {
  const DType dtype = context.input(0).dtype;
  const auto dims = input_dims(context, 0);
  const std::size_t outputs = context.outputs.size();
  if (!dims) {
    for (std::size_t i = 0; i < outputs; ++i) set_output(context, i, dtype, std::nullopt);
    return;
  }
  const auto axis = static_cast<std::size_t>(
      normalize_axis(context.attrs().get_int("axis", 0), static_cast<std::int64_t>(dims->size()), context.node));
  const auto requested = ints_from_input_or_attribute(context, 1, split_attribute(context.opset));
  const bool sizes_unknown = !requested && context.has_input(1);
  const Dim& dim = (*dims)[axis];
  std::optional<std::vector<std::int64_t>> sizes;
  if (dim.is_static() && !sizes_unknown) sizes = split_sizes(requested, dim.value, outputs, context.node);
  else if (requested && requested->size() == outputs) sizes = requested;
  for (std::size_t i = 0; i < outputs; ++i) {
    Dims out = *dims;
    out[axis] = sizes ? Dim((*sizes)[i]) : Dim();
    set_output(context, i, dtype, std::move(out));
  }
}

void compute_split(KernelContext& context) {
  const Tensor& input = context.input(0);
  const auto axis = static_cast<std::size_t>(normalize_axis(context.attrs().get_int("axis", 0), input.rank(), context.node));
  const auto sizes = split_sizes(ints_from_input_or_attribute(context, 1, split_attribute(context.opset)),
                                 input.shape()[axis], context.outputs.size(), context.node);
  const Shape strides = contiguous_strides(input.shape());
  std::int64_t start = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    Shape shape = input.shape();
    shape[axis] = sizes[i];
    if (!context.node.outputs[i].empty())
      context.outputs[i] = copy_strided(input, start * strides[axis], std::move(shape), strides, context.threads);
    start += sizes[i];
  }
}

}  // namespace

ASC_REGISTER_OP("", "Split", 11, 17, infer_split, compute_split, data_movement_cost);

}  // namespace asc::ops
