// Cast (target dtype from attribute 'to') and CastLike (target dtype of input 1). Conversion is
// numpy's astype: float to integer truncates toward zero, to bool is != 0, float16/bfloat16
// round to nearest even. Strings and complex types have no asc dtype: EE2002.
#include <cstdint>
#include <span>
#include <string>

#include <asc/sdk/half.hpp>

#include "common/elementwise.hpp"
#include "common/onnx_dtype_codes.hpp"
#include "common/uninitialized_tensor.hpp"

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

// x as `target`: x itself when it already is (as Identity; a model's float32 -> float32 input
// Cast otherwise copied the whole input), float32 <-> float16 of a contiguous tensor (the NPU
// simulator's input and output Casts) shared out on `threads` in chunks, anything else by
// Tensor::cast.
Tensor cast_to(const Tensor& x, DType target, int threads) {
  if (x.dtype() == target) return x;
  const bool half_pair = (x.dtype() == DType::Float32 && target == DType::Float16) ||
                         (x.dtype() == DType::Float16 && target == DType::Float32);
  if (!half_pair || !x.is_contiguous()) return x.cast(target);
  Tensor y = uninitialized_tensor(target, x.shape());
  for_each_chunk(threads, x.numel(), [&](std::int64_t begin, std::int64_t end) {
    const auto n = static_cast<std::size_t>(end - begin);
    if (target == DType::Float16)
      convert(std::span<const float>(x.data<float>() + begin, n), std::span<float16>(y.data<float16>() + begin, n));
    else
      convert(std::span<const float16>(x.data<float16>() + begin, n), std::span<float>(y.data<float>() + begin, n));
  });
  return y;
}

void cast_compute(KernelContext& context) {
  context.outputs[0] = cast_to(context.input(0), cast_target(context.node), context.threads);
}

void cast_like_infer(InferenceContext& context) {
  context.outputs[0].dtype = context.input(1).dtype;
  context.outputs[0].shape = context.input(0).shape;
}

void cast_like_compute(KernelContext& context) {
  context.outputs[0] = cast_to(context.input(0), context.input(1).dtype(), context.threads);
}

}  // namespace

ASC_REGISTER_OP("", "Cast", 11, 17, cast_infer, cast_compute, per_element_cost(element_flops::kSimple));
ASC_REGISTER_OP("", "CastLike", 15, 17, cast_like_infer, cast_like_compute, per_element_cost(element_flops::kSimple));

}  // namespace asc::ops
