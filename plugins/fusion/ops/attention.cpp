// asc.Attention: multi-head scaled dot-product attention with its input projections.
//   inputs  0 Xq [b,s,eq], 1 Wq [eq,h*dq], 2 Bq? [h*dq], 3 Xk [b,t,ek], 4 Wk [ek,h*dq], 5 Bk?,
//           6 Xv [b,t,ev], 7 Wv [ev,h*dv], 8 Bv?, 9 Mask? (broadcasts to [b,h,s,t])
//   attributes num_heads (h), scale (multiplies Q·Kᵀ)
//   output  [b,s,h*dv] = merge_heads(softmax(split(Xq·Wq+Bq)·split(Xk·Wk+Bk)ᵀ·scale + Mask) · split(Xv·Wv+Bv))
// Made by AttentionFusion (a scope fusion). Runs the registered MatMul, Add, Transpose, Mul and
// Softmax definitions in the order the unfused graph did.
#include <climits>
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/op_registry.hpp>

#include <asc/sdk/op_cost.hpp>
#include "ops/inner_ops.hpp"
#include "ops/input_prefix.hpp"

namespace asc::fusion {
namespace {

constexpr std::size_t kMask = 9;

[[noreturn]] void fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

std::int64_t heads_of(const Node& node) {
  const std::int64_t heads = node.attributes.require_int("num_heads");
  if (heads < 1) fail(node, "num_heads must be positive, got " + std::to_string(heads));
  return heads;
}

Attributes transpose(std::vector<std::int64_t> perm) {
  Attributes attributes;
  attributes.set("perm", std::move(perm));
  return attributes;
}

// Projection i (0 = Q, 1 = K, 2 = V) split into heads: [b, h, n, d] (K as [b, h, d, n]).
Tensor project_heads(KernelContext& context, std::size_t which, std::int64_t heads) {
  const Node& node = context.node;
  const std::size_t first = which * 3;
  const Tensor& x = context.input(first);
  if (x.rank() != 3) fail(node, "projection inputs must be [batch, sequence, features], got " + shape_to_string(x.shape()));
  Tensor projected = run_inner(node, "MatMul", {&x, &context.input(first + 1)}, context.threads);
  if (context.has_input(first + 2))
    projected = run_inner(node, "Add", {&projected, context.inputs[first + 2]}, context.threads);
  const Shape& shape = projected.shape();
  if (shape[2] % heads != 0)
    fail(node, "projection width " + std::to_string(shape[2]) + " is not divisible by num_heads " + std::to_string(heads));
  const Tensor split = projected.reshaped({shape[0], shape[1], heads, shape[2] / heads});
  return run_inner(node, "Transpose", {&split}, context.threads,
                   transpose(which == 1 ? std::vector<std::int64_t>{0, 2, 3, 1} : std::vector<std::int64_t>{0, 2, 1, 3}));
}

void attention_compute(KernelContext& context) {
  const Node& node = context.node;
  const std::int64_t heads = heads_of(node);
  const Tensor q = project_heads(context, 0, heads);
  const Tensor k = project_heads(context, 1, heads);
  const Tensor v = project_heads(context, 2, heads);
  Tensor scores = run_inner(node, "MatMul", {&q, &k}, context.threads);
  const Tensor scale = Tensor::scalar<float>(node.attributes.get_float("scale", 1.0f)).cast(scores.dtype());
  scores = run_inner(node, "Mul", {&scores, &scale}, context.threads);
  if (context.has_input(kMask)) scores = run_inner(node, "Add", {&scores, context.inputs[kMask]}, context.threads);
  Attributes last_axis;
  last_axis.set("axis", std::int64_t{-1});
  const Tensor weights = run_inner(node, "Softmax", {&scores}, context.threads, std::move(last_axis));
  const Tensor heads_out = run_inner(node, "MatMul", {&weights, &v}, context.threads);
  const Tensor merged = run_inner(node, "Transpose", {&heads_out}, context.threads, transpose({0, 2, 1, 3}));
  const Shape& shape = merged.shape();
  context.outputs[0] = merged.reshaped({shape[0], shape[1], shape[2] * shape[3]});
}

void attention_infer(InferenceContext& context) {
  heads_of(context.node);
  const ValueInfo& xq = context.input(0);
  const ValueInfo& wv = context.input(7);
  context.outputs[0].dtype = xq.dtype;
  if (xq.shape && wv.shape) {
    if (xq.shape->size() != 3 || wv.shape->size() != 2)
      fail(context.node, "expects [batch, sequence, features] inputs and 2-D weights, got " + to_string(xq) + " and " +
                             to_string(wv));
    context.outputs[0].shape = std::vector<Dim>{(*xq.shape)[0], (*xq.shape)[1], (*wv.shape)[1]};
  }
}

double matmul_flops(const ValueInfo* x, const ValueInfo* w) {
  if (x == nullptr || w == nullptr || !x->has_static_shape() || !w->has_static_shape()) return 0;
  const Shape xs = x->static_shape();
  const Shape ws = w->static_shape();
  return 2.0 * static_cast<double>(num_elements(xs)) * static_cast<double>(ws.back());
}

CostFacts attention_cost(const CostContext& context) {
  const auto& in = context.inputs;
  if (in.size() < 9 || in[0] == nullptr || in[1] == nullptr || in[3] == nullptr || in[7] == nullptr)
    fail(context.node, "needs the Q/K/V inputs and weights");
  double flops = matmul_flops(in[0], in[1]) + matmul_flops(in[3], in[4]) + matmul_flops(in[6], in[7]);
  const ValueInfo* xq = in[0];
  const ValueInfo* xk = in[3];
  const ValueInfo* wq = in[1];
  const ValueInfo* wv = in[7];
  if (xq->has_static_shape() && xk->has_static_shape() && wq->has_static_shape() && wv->has_static_shape()) {
    const Shape q = xq->static_shape();
    const double pairs = static_cast<double>(q[0] * q[1] * xk->static_shape()[1]);  // b·s·t, over all heads
    const double width_qk = static_cast<double>(wq->static_shape()[1]);
    const double width_v = static_cast<double>(wv->static_shape()[1]);
    const double heads = static_cast<double>(heads_of(context.node));
    flops += 2.0 * pairs * width_qk + 2.0 * pairs * width_v + 6.0 * pairs * heads;  // QKᵀ, PV, scale+softmax
  }
  return {flops, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
}

}  // namespace

ASC_REGISTER_OP("asc", "Attention", 1, INT_MAX, attention_infer, attention_compute, attention_cost);

}  // namespace asc::fusion
