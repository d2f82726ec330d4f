#include "common/elementwise.hpp"

#include <algorithm>
#include <string>

namespace asc::ops {

void throw_dtype_unsupported(const Node& node, DType dtype) {
  throw Error(ErrorCode::OperatorDtypeUnsupported,
              node.describe() + ": element type " + std::string(dtype_name(dtype)) + " is not supported");
}

BroadcastPlan plan_broadcast(const Shape& output_shape, const std::vector<const Shape*>& operand_shapes) {
  BroadcastPlan plan;
  plan.total = num_elements(output_shape);
  const std::size_t operands = operand_shapes.size() + 1;
  std::vector<Shape> strides;
  strides.reserve(operands);
  for (const Shape* shape : operand_shapes) strides.push_back(broadcast_strides(*shape, output_shape));
  strides.push_back(contiguous_strides(output_shape));

  // Merged dimensions, innermost first. Dimension d joins the group inside it when, for every
  // operand, stepping once along d equals stepping over the whole group.
  std::vector<std::int64_t> sizes;
  std::vector<Shape> merged(operands);
  for (std::size_t d = output_shape.size(); d-- > 0;) {
    if (output_shape[d] == 1) continue;
    bool mergeable = !sizes.empty();
    for (std::size_t k = 0; k < operands && mergeable; ++k)
      mergeable = strides[k][d] == merged[k].back() * sizes.back();
    if (mergeable) {
      sizes.back() *= output_shape[d];
      continue;
    }
    sizes.push_back(output_shape[d]);
    for (std::size_t k = 0; k < operands; ++k) merged[k].push_back(strides[k][d]);
  }

  plan.inner_step.assign(operands - 1, 0);
  plan.outer_strides.assign(operands, Shape{});
  if (sizes.empty()) return plan;  // a single element
  plan.inner = sizes.front();
  for (std::size_t k = 0; k + 1 < operands; ++k) plan.inner_step[k] = merged[k].front();
  plan.outer.assign(sizes.rbegin(), sizes.rend() - 1);
  for (std::size_t k = 0; k < operands; ++k) plan.outer_strides[k].assign(merged[k].rbegin(), merged[k].rend() - 1);
  return plan;
}

Shape broadcast_input_shapes(const KernelContext& context) {
  std::vector<const Shape*> shapes;
  for (std::size_t i = 0; i < context.input_count(); ++i)
    if (context.has_input(i)) shapes.push_back(&context.inputs[i]->shape());
  return broadcast_shapes(shapes, context.node);
}

void infer_like_input(InferenceContext& context) {
  const ValueInfo& input = context.input(0);
  context.outputs[0].dtype = input.dtype;
  context.outputs[0].shape = input.shape;
}

void infer_bool_like_input(InferenceContext& context) {
  context.outputs[0].dtype = DType::Bool;
  context.outputs[0].shape = context.input(0).shape;
}

std::optional<std::vector<Dim>> broadcast_input_dims(const InferenceContext& context, std::size_t first,
                                                     std::size_t last) {
  last = std::min(last, context.inputs.size());
  std::vector<Dim> dims;
  for (std::size_t i = first; i < last; ++i) {
    if (!context.has_input(i)) continue;
    const auto& shape = context.inputs[i]->shape;
    if (!shape) return std::nullopt;
    dims = broadcast_dims(dims, *shape, context.node);
  }
  return dims;
}

void require_same_input_dtypes(const InferenceContext& context, std::size_t first, std::size_t last) {
  last = std::min(last, context.inputs.size());
  DType seen = DType::Undefined;
  for (std::size_t i = first; i < last; ++i) {
    if (!context.has_input(i) || context.inputs[i]->dtype == DType::Undefined) continue;
    const DType dtype = context.inputs[i]->dtype;
    if (seen != DType::Undefined && dtype != seen)
      throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": inputs have different dtypes " +
                                                  std::string(dtype_name(seen)) + " and " +
                                                  std::string(dtype_name(dtype)));
    seen = dtype;
  }
}

void infer_broadcast(InferenceContext& context) {
  require_same_input_dtypes(context);
  context.outputs[0].dtype = context.input(0).dtype;
  context.outputs[0].shape = broadcast_input_dims(context);
}

void infer_broadcast_bool(InferenceContext& context) {
  require_same_input_dtypes(context);
  context.outputs[0].dtype = DType::Bool;
  context.outputs[0].shape = broadcast_input_dims(context);
}

CostFunction per_element_cost(double flops_per_element) {
  return [flops_per_element](const CostContext& context) { return elementwise_cost(context, flops_per_element); };
}

}  // namespace asc::ops
