// GatherElements: output[i] = data[i with i[axis] replaced by indices[i]]; the output has the
// indices' shape.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"
#include "tensor/element_words.hpp"
#include "tensor/index_checks.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_gather_elements(InferenceContext& context) {
  set_output(context, 0, context.input(0).dtype, input_dims(context, 1));
}

void compute_gather_elements(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& data = context.input(0);
  const Tensor& indices = context.input(1);
  const auto axis = static_cast<std::size_t>(normalize_axis(context.attrs().get_int("axis", 0), data.rank(), node));
  bool fits = indices.rank() == data.rank();
  for (std::size_t d = 0; fits && d < data.shape().size(); ++d) fits = d == axis || indices.shape()[d] <= data.shape()[d];
  if (!fits)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": indices " + shape_to_string(indices.shape()) +
                                                " do not fit data " + shape_to_string(data.shape()));
  Tensor out(data.dtype(), indices.shape());
  const std::vector<std::int64_t> picks = indices.to_int64s();
  Shape data_strides = contiguous_strides(data.shape());
  const std::int64_t axis_stride = data_strides[axis];
  const std::int64_t dim = data.shape()[axis];
  data_strides[axis] = 0;
  visit_element_word(data.dtype(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* src = words_of<W>(data);
    W* dst = mutable_words_of<W>(out);
    std::int64_t n = 0;
    for_each_index(indices.shape(), {data_strides}, [&](const std::vector<std::int64_t>& offsets) {
      dst[n] = src[offsets[0] + checked_index(picks[static_cast<std::size_t>(n)], dim, node) * axis_stride];
      ++n;
    });
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "GatherElements", 11, 17, infer_gather_elements, compute_gather_elements, data_movement_cost);

}  // namespace asc::ops
