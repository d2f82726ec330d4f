#include "npusim_executable.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <exception>
#include <optional>
#include <string>

#include "input_check.hpp"
#include "node_dump.hpp"
#include "task_event.hpp"
#include "timing_model.hpp"

namespace asc::npusim {
namespace {

using reference::kNoSlot;
using reference::PlanStep;

const ValueInfo* info_or_null(const Graph& graph, const std::string& name) {
  return name.empty() ? nullptr : graph.value_info(name);
}

// The node's float dtype as the graph declares it: its first float output, else first float input.
DType graph_float_dtype(const Graph& graph, const Node& node) {
  for (const auto* names : {&node.outputs, &node.inputs})
    for (const std::string& name : *names)
      if (const ValueInfo* info = info_or_null(graph, name); info != nullptr && is_floating(info->dtype))
        return info->dtype;
  return DType::Undefined;
}

CostFacts cost_of(const PlanStep& step, const std::vector<const ValueInfo*>& inputs,
                  const std::vector<const ValueInfo*>& outputs) {
  if (!step.op->cost) return CostFacts{};
  return step.op->cost(CostContext{*step.node, inputs, outputs});
}

NodeDecision decide(const Graph& graph, const PlanStep& step, const SocConfig& soc, PrecisionMode mode) {
  std::vector<const ValueInfo*> inputs, outputs;
  for (const std::string& name : step.node->inputs) inputs.push_back(info_or_null(graph, name));
  for (const std::string& name : step.node->outputs) outputs.push_back(info_or_null(graph, name));
  NodeDecision decision;
  decision.unit = cost_of(step, inputs, outputs).unit;
  const DType float_dtype = graph_float_dtype(graph, *step.node);
  if (float_dtype == DType::Undefined) {
    // No float operand declared: integer-only, or types the graph does not record (decided
    // from the tensors at run time).
    decision.compute_dtype = DType::Undefined;
    return decision;
  }
  decision.compute_dtype = compute_dtype(mode, *step.node, decision.unit, float_dtype, soc);
  decision.rounds_to_f16 = decision.compute_dtype == DType::Float16;
  return decision;
}

// A decision the graph's types left open, completed from the tensors the node actually saw.
NodeDecision completed(NodeDecision decision, const KernelContext& context, const SocConfig& soc, PrecisionMode mode) {
  if (decision.compute_dtype != DType::Undefined) return decision;
  DType float_dtype = DType::Undefined, first_dtype = DType::Undefined;
  for (const Tensor& output : context.outputs)
    if (output.defined()) {
      if (first_dtype == DType::Undefined) first_dtype = output.dtype();
      if (float_dtype == DType::Undefined && is_floating(output.dtype())) float_dtype = output.dtype();
    }
  for (const Tensor* input : context.inputs)
    if (input != nullptr && float_dtype == DType::Undefined && is_floating(input->dtype())) float_dtype = input->dtype();
  if (float_dtype == DType::Undefined) {
    decision.compute_dtype = first_dtype == DType::Undefined ? DType::Float32 : first_dtype;
    return decision;
  }
  decision.compute_dtype = compute_dtype(mode, context.node, decision.unit, float_dtype, soc);
  decision.rounds_to_f16 = decision.compute_dtype == DType::Float16;
  return decision;
}

void run_kernel(const PlanStep& step, KernelContext& context) {
  const Node& node = *step.node;
  try {
    step.op->compute(context);
  } catch (const Error& e) {
    if (e.message().find("'" + node.name + "'") != std::string::npos) throw;
    throw Error(e.code(), node.describe() + ": " + e.message());
  } catch (const std::exception& e) {
    throw Error(ErrorCode::ExecutionFailed, node.describe() + ": kernel failed: " + e.what());
  }
  for (std::size_t i = 0; i < node.outputs.size(); ++i)
    if (!node.outputs[i].empty() && !context.outputs[i].defined())
      throw Error(ErrorCode::ExecutionFailed, node.describe() + ": kernel produced no tensor for output " +
                                                  std::to_string(i) + " '" + node.outputs[i] + "'");
}

// The timing model's view of a finished task, from the tensors it actually read and wrote.
TaskInput task_input(const PlanStep& step, const KernelContext& context, const NodeDecision& decision,
                     const std::vector<int>& previous_outputs, std::int64_t l2_bytes) {
  std::vector<ValueInfo> in_infos, out_infos;
  std::vector<Shape> in_shapes, out_shapes;
  TaskInput task;
  task.unit = decision.unit;
  task.element_bytes = dtype_size(decision.compute_dtype);
  for (std::size_t i = 0; i < context.inputs.size(); ++i) {
    const Tensor* tensor = context.inputs[i];
    in_infos.push_back(tensor == nullptr ? ValueInfo{} : ValueInfo::from_shape(step.node->inputs[i], tensor->dtype(), tensor->shape()));
    in_shapes.push_back(tensor == nullptr ? Shape{} : tensor->shape());
    if (tensor == nullptr) continue;
    task.input_elements += tensor->numel();
    if (i == 0) task.first_input_elements = tensor->numel();
    task.largest_elements = std::max(task.largest_elements, tensor->numel());
    const int slot = step.input_slots[i];
    const auto bytes = tensor->numel() * static_cast<std::int64_t>(task.element_bytes);
    if (std::find(previous_outputs.begin(), previous_outputs.end(), slot) != previous_outputs.end() && bytes <= l2_bytes)
      task.l2_resident_input_bytes += bytes;
  }
  for (std::size_t i = 0; i < context.outputs.size(); ++i) {
    const Tensor& tensor = context.outputs[i];
    out_infos.push_back(tensor.defined() ? ValueInfo::from_shape(step.node->outputs[i], tensor.dtype(), tensor.shape()) : ValueInfo{});
    out_shapes.push_back(tensor.defined() ? tensor.shape() : Shape{});
    if (!tensor.defined()) continue;
    task.output_elements += tensor.numel();
    task.largest_elements = std::max(task.largest_elements, tensor.numel());
  }
  std::vector<const ValueInfo*> in_ptrs, out_ptrs;
  for (std::size_t i = 0; i < in_infos.size(); ++i) in_ptrs.push_back(context.inputs[i] == nullptr ? nullptr : &in_infos[i]);
  for (std::size_t i = 0; i < out_infos.size(); ++i) out_ptrs.push_back(context.outputs[i].defined() ? &out_infos[i] : nullptr);
  task.flops = cost_of(step, in_ptrs, out_ptrs).flops;
  task.input_count = std::max(1, static_cast<int>(in_ptrs.size()));
  task.output_count = std::max(1, static_cast<int>(out_ptrs.size()));
  if (decision.unit == ComputeUnit::Cube) task.gemm = gemm_dims(*step.node, in_shapes, out_shapes);
  return task;
}

}  // namespace

NpusimExecutable::NpusimExecutable(const Graph& graph, const OpRegistry& ops, SocConfig soc, PrecisionMode mode)
    : graph_(std::make_unique<const Graph>(graph)),
      plan_(reference::build_execution_plan(*graph_, ops)),
      soc_(std::move(soc)),
      mode_(mode) {
  for (const PlanStep& step : plan_.steps) decisions_.push_back(decide(*graph_, step, soc_, mode_));
  // Under force_fp16 the NPU holds every float constant as fp16.
  if (mode_ == PrecisionMode::ForceFp16)
    for (Tensor& value : plan_.initial_values) value = rounded_copy(value);
}

std::vector<ValueInfo> NpusimExecutable::infos_of(const std::vector<std::string>& names) const {
  std::vector<ValueInfo> infos;
  for (const std::string& name : names) {
    const ValueInfo* info = graph_->value_info(name);
    infos.push_back(info != nullptr ? *info : ValueInfo{name, DType::Undefined, std::nullopt});
  }
  return infos;
}

std::vector<ValueInfo> NpusimExecutable::input_infos() const { return infos_of(graph_->inputs); }
std::vector<ValueInfo> NpusimExecutable::output_infos() const { return infos_of(graph_->outputs); }

TensorMap NpusimExecutable::execute(const TensorMap& inputs, const RunOptions& options) {
  reference::check_inputs(input_infos(), inputs);
  std::vector<Tensor> values = plan_.initial_values;
  for (std::size_t i = 0; i < plan_.input_slots.size(); ++i) {
    const Tensor& input = inputs.at(graph_->inputs[i]);
    values[static_cast<std::size_t>(plan_.input_slots[i])] =
        mode_ == PrecisionMode::ForceFp16 ? rounded_copy(input) : input.contiguous();
  }

  std::optional<reference::NodeDump> dump;
  if (!options.dump_dir.empty()) dump.emplace(options.dump_dir);
  double clock_us = 0;               // stream 0's simulated time
  std::vector<int> previous_outputs;  // slots the previous task wrote (the L2-hit rule)
  std::size_t task_id = 0;
  try {
    for (std::size_t index = 0; index < plan_.steps.size(); ++index) {
      const PlanStep& step = plan_.steps[index];

      std::vector<const Tensor*> step_inputs;
      for (const int slot : step.input_slots)
        step_inputs.push_back(slot == kNoSlot ? nullptr : &values[static_cast<std::size_t>(slot)]);
      KernelContext context{*step.node, step.opset, std::move(step_inputs),
                            std::vector<Tensor>(step.output_slots.size()), options.threads};
      run_kernel(step, context);
      const NodeDecision decision = completed(decisions_[index], context, soc_, mode_);
      for (Tensor& output : context.outputs) {
        output = output.defined() ? output.contiguous() : output;
        if (decision.rounds_to_f16) output = rounded_copy(output);
      }

      if (decision.unit != ComputeUnit::None) {
        const TaskTiming timing =
            time_task(soc_, task_input(step, context, decision, previous_outputs, soc_.l2_bytes));
        if (options.profile_sink != nullptr)
          options.profile_sink->record(task_event(context, task_id, timing, soc_, clock_us, decision.compute_dtype));
        clock_us += timing.duration_us;
        ++task_id;
        previous_outputs = step.output_slots;
      }
      if (dump) dump->record(*step.node, context.outputs);
      for (std::size_t i = 0; i < step.output_slots.size(); ++i)
        if (step.output_slots[i] != kNoSlot) values[static_cast<std::size_t>(step.output_slots[i])] = context.outputs[i];
      for (const int slot : step.release_after) values[static_cast<std::size_t>(slot)] = Tensor();
    }
  } catch (...) {
    if (dump) {
      try {
        dump->write_manifest();
      } catch (const std::exception& e) {
        log_warning(e.what());
      }
    }
    throw;
  }
  if (dump) dump->write_manifest();

  TensorMap outputs;
  for (std::size_t i = 0; i < plan_.output_slots.size(); ++i)
    outputs[graph_->outputs[i]] = values[static_cast<std::size_t>(plan_.output_slots[i])];
  return outputs;
}

}  // namespace asc::npusim
