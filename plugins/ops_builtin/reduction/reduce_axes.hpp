// Which dimensions a Reduce* node reduces: axes from the attribute before `axes_input_opset` and
// from input 1 from that opset on (ReduceSum: 13; the others: 18, beyond what we register),
// keepdims, and noop_with_empty_axes (empty axes reduce everything unless it is set).
#pragma once

#include <cstdint>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::ops {

struct ReducePlan {
  Shape input;
  std::vector<bool> reduced;  // per input dimension
  bool identity = false;      // noop_with_empty_axes with empty axes: the output is the input
  Shape output;               // keepdims applied
  std::int64_t group_size = 1;  // input elements per output element

  // Element strides mapping an input index to its output element (0 along reduced dims).
  Shape output_strides() const;
};

ReducePlan plan_reduce(const KernelContext& context, std::int64_t axes_input_opset);
// Sets output 0 to the input dtype and the reduced dims (as far as they are known).
void infer_reduce(InferenceContext& context, std::int64_t axes_input_opset);

}  // namespace asc::ops
