// Cast (target dtype from attribute 'to') and CastLike (target dtype of input 1). Conversion is
// numpy's astype: float to integer truncates toward zero, to bool is != 0, float16/bfloat16
// round to nearest even. Strings and complex types have no asc dtype: EE2002.
#include <cstdint>
#include <string>

#include "common/elementwise.hpp"
#include "common/onnx_dtype_codes.hpp"

namespace asc::ops {
namespace {

DType cast_target(const Node& node) {
  const std::int64_t code = node.attributes.require_int("to");
  if (const auto dtype = dtype_from_onnx_code(code)) return *dtype;
  constexpr std::int64_t kString = 8, kComplex64 = 14, kComplex128 = 15;
  if (code == kString || code == kComplex64 || code == kComplex128)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": casting to ONNX type " + std::to_string(code) + " (string/complex) is not supported");
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": attribute 'to' is not a valid ONNX type (" +
                                              std::to_string(code) + ")");
}

void cast_infer(InferenceContext& context) {
  context.outputs[0].dtype = cast_target(context.node);
  context.outputs[0].shape = context.input(0).shape;
}

void cast_compute(KernelContext& context) {
  context.outputs[0] = context.input(0).cast(cast_target(context.node));
}

void cast_like_infer(InferenceContext& context) {
  context.outputs[0].dtype = context.input(1).dtype;
  context.outputs[0].shape = context.input(0).shape;
}

void cast_like_compute(KernelContext& context) {
  context.outputs[0] = context.input(0).cast(context.input(1).dtype());
}

}  // namespace

ASC_REGISTER_OP("", "Cast", 11, 17, cast_infer, cast_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "CastLike", 15, 17, cast_like_infer, cast_like_compute, per_element_cost(element_flops::kSimple));

}  // namespace asc::ops
