// Trilu (opset 14): keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the last two
// dimensions and zeroes the rest.
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/element_words.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

void infer_trilu(InferenceContext& context) {
  set_output(context, 0, context.input(0).dtype, input_dims(context, 0));
}

void compute_trilu(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& input = context.input(0);
  if (input.rank() < 2)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": input must have rank >= 2, not " + std::to_string(input.rank()));
  std::int64_t k = 0;
  if (context.has_input(1)) {
    const Tensor& k_input = context.input(1);
    if (k_input.numel() != 1) throw Error(ErrorCode::InvalidOperator, node.describe() + ": k must be a scalar");
    k = k_input.to_int64s()[0];
  }
  const bool upper = context.attrs().get_int("upper", 1) != 0;
  const std::int64_t rows = input.shape()[input.shape().size() - 2];
  const std::int64_t cols = input.shape().back();
  const std::int64_t matrices = rows * cols == 0 ? 0 : input.numel() / (rows * cols);
  Tensor out(input.dtype(), input.shape());  // zero-filled
  visit_element_word(input.dtype(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* src = words_of<W>(input);
    W* dst = mutable_words_of<W>(out);
    for (std::int64_t m = 0; m < matrices; ++m)
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
          const std::int64_t at = (m * rows + i) * cols + j;
          if (upper ? j - i >= k : j - i <= k) dst[at] = src[at];
        }
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "Trilu", 14, 17, infer_trilu, compute_trilu, data_movement_cost);

}  // namespace asc::ops
