// EyeLike: a 2-D tensor of the input's shape with ones on diagonal k, in the 'dtype' attribute's
// type (the input's when absent).
#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/onnx_dtype_codes.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

DType eye_dtype(const Node& node, DType input) {
  if (!node.attributes.has("dtype")) return input;
  const std::int64_t code = node.attributes.require_int("dtype");
  if (const auto dtype = dtype_from_onnx_code(code)) return *dtype;
  throw Error(ErrorCode::OperatorDtypeUnsupported,
              node.describe() + ": dtype " + std::to_string(code) + " is not a supported ONNX element type");
}

void infer_eye_like(InferenceContext& context) {
  const auto dims = input_dims(context, 0);
  if (dims && dims->size() != 2)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": input must be 2-D");
  set_output(context, 0, eye_dtype(context.node, context.input(0).dtype), dims ? dims : unknown_dims(2));
}

void compute_eye_like(KernelContext& context) {
  const Tensor& input = context.input(0);
  if (input.rank() != 2) throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": input must be 2-D");
  const std::int64_t k = context.attrs().get_int("k", 0);
  const std::int64_t rows = input.shape()[0];
  const std::int64_t cols = input.shape()[1];
  Tensor out(eye_dtype(context.node, input.dtype()), input.shape());
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* values = out.data<T>();
    for (std::int64_t i = 0; i < rows; ++i)
      if (i + k >= 0 && i + k < cols) values[i * cols + i + k] = T(1);
  });
  context.outputs[0] = std::move(out);
}

}  // namespace

ASC_REGISTER_OP("", "EyeLike", 11, 17, infer_eye_like, compute_eye_like, data_movement_cost);

}  // namespace asc::ops
