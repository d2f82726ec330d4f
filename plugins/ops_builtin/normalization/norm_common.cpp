#include "normalization/norm_common.hpp"

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {

std::vector<double> channel_values(const Node& node, const Tensor& parameter, std::int64_t channels,
                                   const std::string& name) {
  if (parameter.shape() != Shape{channels})
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + name + " has shape " +
                                                shape_to_string(parameter.shape()) + ", expected [" +
                                                std::to_string(channels) + "]");
  return parameter.to_doubles();
}

void infer_same_as_input(InferenceContext& context) {
  context.outputs[0].dtype = context.input(0).dtype;
  context.outputs[0].shape = context.input(0).shape;
}

CostFacts normalization_cost(const CostContext& context, double flops_per_element) {
  const ValueInfo* x = context.inputs.empty() ? nullptr : context.inputs[0];
  return {flops_per_element * static_cast<double>(value_elements(x)), input_bytes(context),
          output_bytes(context), ComputeUnit::Vector};
}

}  // namespace asc::ops
