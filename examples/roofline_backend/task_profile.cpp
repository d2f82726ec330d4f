#include "task_profile.hpp"

#include <algorithm>
#include <asc/sdk/backend/operand_columns.hpp>
#include <asc/sdk/op_cost.hpp>
#include <vector>

namespace roofline {
namespace {

asc::ValueInfo info_of(const std::string& name, const asc::Tensor& tensor) {
  return asc::ValueInfo::from_shape(name, tensor.dtype(), tensor.shape());
}

}  // namespace

asc::CostFacts cost_of(const asc::PlanStep& step, const asc::KernelContext& context) {
  const asc::Node& node = *step.node;
  // Value infos for what the kernel actually read and wrote; nullptr for omitted operands.
  std::vector<asc::ValueInfo> inputs, outputs;
  inputs.reserve(context.inputs.size());
  outputs.reserve(context.outputs.size());
  std::vector<const asc::ValueInfo*> input_ptrs, output_ptrs;
  for (std::size_t i = 0; i < context.inputs.size(); ++i) {
    const asc::Tensor* tensor = context.inputs[i];
    if (tensor == nullptr || !tensor->defined()) {
      input_ptrs.push_back(nullptr);
      continue;
    }
    inputs.push_back(info_of(node.inputs[i], *tensor));
    input_ptrs.push_back(&inputs.back());
  }
  for (std::size_t i = 0; i < context.outputs.size(); ++i) {
    if (!context.outputs[i].defined()) {
      output_ptrs.push_back(nullptr);
      continue;
    }
    outputs.push_back(info_of(node.outputs[i], context.outputs[i]));
    output_ptrs.push_back(&outputs.back());
  }
  const asc::CostContext cost_context{node, input_ptrs, output_ptrs};
  return step.op->cost ? step.op->cost(cost_context) : asc::data_movement_cost(cost_context);
}

asc::DType operand_dtype(const asc::KernelContext& context) {
  asc::DType first = asc::DType::Undefined;
  for (const asc::Tensor* tensor : context.inputs) {
    if (tensor == nullptr || !tensor->defined()) continue;
    if (asc::is_floating(tensor->dtype())) return tensor->dtype();
    if (first == asc::DType::Undefined) first = tensor->dtype();
  }
  return first == asc::DType::Undefined ? asc::DType::Float32 : first;
}

asc::ProfileEvent task_event(const asc::KernelContext& context, std::size_t task_id, double start_us,
                             const asc::CostFacts& cost, const TaskTime& time, const SocFacts& soc) {
  asc::ProfileEvent event = asc::node_profile_event(context, task_id, start_us, time.duration_us);
  event.task_type = time.task_type;
  event.block_dim = time.block_dim;
  const double core_us = std::max(time.compute_us, time.memory_us);
  event.memory_copy_us = std::max(0.0, time.memory_us - time.compute_us);
  if (time.task_type != "AI_CPU") {
    const bool split_vector = soc.split && time.task_type == "AI_VECTOR_CORE";
    event.metrics[split_vector ? "aiv_time(us)" : "aicore_time(us)"] = core_us;
    if (time.compute_us > 0) event.metrics["memory_bound"] = time.memory_us / time.compute_us;
    if (cost.unit == asc::ComputeUnit::Cube)
      event.metrics["cube_utilization(%)"] =
          100.0 * cost.flops / (time.peak_flops_per_us * time.duration_us);
  }
  const double bytes = static_cast<double>(cost.bytes_read + cost.bytes_written);
  event.metrics["flops"] = cost.flops;
  event.metrics["device_memory_bytes"] = bytes;
  event.metrics["roofline_compute_us"] = time.compute_us;
  event.metrics["roofline_memory_us"] = time.memory_us;
  event.metrics["arithmetic_intensity"] = bytes > 0 ? cost.flops / bytes : 0;
  return event;
}

}  // namespace roofline
