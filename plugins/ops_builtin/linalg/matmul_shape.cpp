#include "linalg/matmul_shape.hpp"

#include <string>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/shape_utils.hpp"

namespace asc::ops {
namespace {

template <class D> std::vector<D> leading(const std::vector<D>& dims) {
  return {dims.begin(), dims.end() - std::min<std::ptrdiff_t>(2, static_cast<std::ptrdiff_t>(dims.size()))};
}

}  // namespace

MatMulShape plan_matmul(const Shape& a, const Shape& b, const Node& node) {
  if (a.empty() || b.empty())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": matmul operands must have rank >= 1, got " +
                                                shape_to_string(a) + " and " + shape_to_string(b));
  MatMulShape plan;
  plan.m = a.size() == 1 ? 1 : a[a.size() - 2];
  plan.k = a.back();
  const std::int64_t k_of_b = b.size() == 1 ? b[0] : b[b.size() - 2];
  plan.n = b.size() == 1 ? 1 : b.back();
  if (plan.k != k_of_b)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": inner dimensions differ: " + shape_to_string(a) +
                                                " x " + shape_to_string(b));
  const Shape a_batch = leading(a);
  const Shape b_batch = leading(b);
  const Shape batch = broadcast_shapes(a_batch, b_batch, node);

  plan.output = batch;
  if (a.size() > 1) plan.output.push_back(plan.m);
  if (b.size() > 1) plan.output.push_back(plan.n);

  const std::vector<Shape> strides{broadcast_strides(a_batch, batch), broadcast_strides(b_batch, batch)};
  for_each_index(batch, strides, [&](const std::vector<std::int64_t>& offsets) {
    plan.a_matrix.push_back(offsets[0]);
    plan.b_matrix.push_back(offsets[1]);
  });
  return plan;
}

std::optional<std::vector<Dim>> infer_matmul_dims(const ValueInfo& a, const ValueInfo& b, const Node& node) {
  if (!a.shape || !b.shape) return std::nullopt;
  const std::vector<Dim>& da = *a.shape;
  const std::vector<Dim>& db = *b.shape;
  if (da.empty() || db.empty())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": matmul operands must have rank >= 1");
  const Dim k_of_a = da.back();
  const Dim k_of_b = db.size() == 1 ? db[0] : db[db.size() - 2];
  if (k_of_a.is_static() && k_of_b.is_static() && k_of_a.value != k_of_b.value)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": inner dimensions differ: " +
                                                std::to_string(k_of_a.value) + " vs " + std::to_string(k_of_b.value));
  std::vector<Dim> out = broadcast_dims(leading(da), leading(db), node);
  if (da.size() > 1) out.push_back(da[da.size() - 2]);
  if (db.size() > 1) out.push_back(db.back());
  return out;
}

CostFacts matmul_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Cube};
  if (context.inputs.size() < 2 || context.inputs[0] == nullptr || context.inputs[1] == nullptr) return facts;
  const auto a = known_shape(*context.inputs[0]);
  const auto b = known_shape(*context.inputs[1]);
  if (!a || !b) return facts;
  const MatMulShape plan = plan_matmul(*a, *b, context.node);
  facts.flops = 2.0 * static_cast<double>(plan.m) * static_cast<double>(plan.n) * static_cast<double>(plan.k) *
                static_cast<double>(plan.batch());
  return facts;
}

}  // namespace asc::ops
