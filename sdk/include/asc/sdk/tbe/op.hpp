// Registering a TBE DSL operator: one call maps an ONNX (domain, op type) to a compute function,
// and the operator's shape/dtype inference, kernel and cost facts all follow from the expression
// the function builds (expr.hpp, evaluate.hpp, schedule.hpp):
//
//   asc::tbe::TensorExpr fused_conv_bn_relu(const asc::tbe::OpInputs& in) {
//     using namespace asc::tbe;
//     TensorExpr y = conv2d(in[0], in[1], {.pads = {1, 1, 1, 1}});
//     ...
//     return vrelu(y);
//   }
//   ASC_TBE_OP({.domain = "com.example", .op_type = "FusedConvBnRelu",
//               .inputs = {"x", "weight", "scale", "offset"}, .compute = fused_conv_bn_relu});
//
// - inference: the expression built from the inputs' static shapes and dtypes gives the output's
//   (a node whose inputs are not static is EE1005);
// - kernel: on a backend that computes at the host dtype (KernelContext::device_dtype Undefined),
//   the golden evaluation in float64, returned at the output's dtype; on the NPU simulator, the
//   device numerics for the task's compute dtype;
// - cost: with CostContext::target (npusim), auto_schedule's tiling for that SoC (the task's
//   Cube/Vector/MTE pipe work is timed from it and recorded in the .om); otherwise plain facts.
// Errors from the expression (EE2004) and the schedule (EE2005) name the node and the stage.
#pragma once

#include <climits>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "asc/sdk/op_registry.hpp"
#include "asc/sdk/tbe/expr.hpp"
#include "asc/sdk/tbe/schedule.hpp"

namespace asc::tbe {

// What a compute function receives: one placeholder per node input (named after OpSpec::inputs)
// and the node, for its attributes.
struct OpInputs {
  const Node& node;
  std::vector<TensorExpr> tensors;
  const TensorExpr& operator[](std::size_t i) const;
  std::size_t size() const noexcept { return tensors.size(); }
  const Attributes& attrs() const noexcept { return node.attributes; }
};

using ComputeFunction = std::function<TensorExpr(const OpInputs&)>;

struct OpSpec {
  std::string domain;  // "" for ai.onnx
  std::string op_type;
  std::int64_t since_version = 1;
  std::int64_t end_version = INT_MAX;
  std::vector<std::string> inputs;  // placeholder names; inputs beyond the list are "input<i>"
  ComputeFunction compute;
  ScheduleOverride schedule;        // manual tuning; empty = auto_schedule decides everything
  // The device kernel's dtypes per SoC for atc's op-info ("*": every SoC not listed); the DSL
  // runs fp16 and fp32 everywhere, a Cube stage at fp16 where the SoC has no fp32 cube.
  std::map<std::string, std::vector<DType>> dtypes{{"*", {DType::Float16, DType::Float32}}};
};

// The expression `spec` builds for a node with these input types (all static), with EE2004/EE2005
// and the compute function's own errors prefixed by the node.
TensorExpr build_expression(const OpSpec& spec, const Node& node, const std::vector<const ValueInfo*>& inputs);

OpDefinition make_op_definition(OpSpec spec);

}  // namespace asc::tbe

// Registers a TBE operator with this plugin's collected list (ASC_REGISTER_OP's, op_registry.hpp):
// the plugin's entry point calls registrar.add_collected_ops() as usual.
#define ASC_TBE_OP(...)                                                                        \
  static const ::asc::detail::OpCollector ASC_OP_CONCAT(asc_tbe_op_collector_, __COUNTER__)( \
      ::asc::tbe::make_op_definition(::asc::tbe::OpSpec __VA_ARGS__))
