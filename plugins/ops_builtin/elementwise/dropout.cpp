// Dropout at inference: the output is the input (sharing its buffer) and the optional mask is
// all true. Opset 11 reads 'ratio' from an attribute; from 12 'ratio' and 'training_mode' are
// optional inputs. Training mode with a non-zero ratio needs random masks this library does
// not produce: EE2003.
#include <algorithm>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

bool wants_mask(const Node& node) { return node.outputs.size() > 1 && !node.outputs[1].empty(); }

void dropout_infer(InferenceContext& context) {
  infer_like_input(context);
  if (wants_mask(context.node)) {
    context.outputs[1].dtype = DType::Bool;
    context.outputs[1].shape = context.input(0).shape;
  }
}

bool dropout_training_mode(const KernelContext& context) {
  if (context.opset < 12 || !context.has_input(2)) return false;
  const Tensor& flag = context.input(2);
  if (flag.dtype() != DType::Bool || flag.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": training_mode must be a bool scalar");
  return flag.data<bool>()[0];
}

double dropout_ratio(const KernelContext& context) {
  if (context.opset < 12) return context.attrs().get_float("ratio", 0.5f);
  if (!context.has_input(1)) return 0.5;
  const Tensor& ratio = context.input(1);
  if (!is_floating(ratio.dtype()) || ratio.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": ratio must be a floating-point scalar");
  return ratio.to_doubles().front();
}

void dropout_compute(KernelContext& context) {
  if (dropout_training_mode(context) && dropout_ratio(context) != 0.0)
    throw Error(ErrorCode::InvalidOperator,
                context.node.describe() + ": training mode (random dropout) is not supported in inference");
  const Tensor& input = context.input(0);
  context.outputs[0] = input;
  if (wants_mask(context.node)) {
    Tensor mask(DType::Bool, input.shape());
    std::fill_n(mask.data<bool>(), mask.numel(), true);
    context.outputs[1] = std::move(mask);
  }
}

}  // namespace

ASC_REGISTER_OP("", "Dropout", 11, 17, dropout_infer, dropout_compute, metadata_cost);

}  // namespace asc::ops
