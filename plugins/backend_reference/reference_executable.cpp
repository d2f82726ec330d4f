#include "reference_executable.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <chrono>
#include <exception>
#include <optional>
#include <string>

#include "input_check.hpp"
#include "node_dump.hpp"
#include "node_profile.hpp"

namespace asc::reference {
namespace {

using Clock = std::chrono::steady_clock;

double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

// Runs the kernel; every failure leaves as an asc::Error that names the node.
void run_kernel(const PlanStep& step, KernelContext& context) {
  const Node& node = *step.node;
  try {
    step.op->compute(context);
  } catch (const Error& e) {
    if (e.message().find("'" + node.name + "'") != std::string::npos) throw;
    throw Error(e.code(), node.describe() + ": " + e.message());
  } catch (const std::exception& e) {
    throw Error(ErrorCode::ExecutionFailed, node.describe() + ": kernel failed: " + e.what());
  } catch (...) {
    throw Error(ErrorCode::ExecutionFailed, node.describe() + ": kernel failed with an unknown exception");
  }
  for (std::size_t i = 0; i < node.outputs.size(); ++i)
    if (!node.outputs[i].empty() && !context.outputs[i].defined())
      throw Error(ErrorCode::ExecutionFailed, node.describe() + ": kernel produced no tensor for output " +
                                                  std::to_string(i) + " '" + node.outputs[i] + "'");
}

KernelContext make_context(const PlanStep& step, std::vector<Tensor>& values, int threads) {
  std::vector<const Tensor*> inputs;
  inputs.reserve(step.input_slots.size());
  for (const int slot : step.input_slots)
    inputs.push_back(slot == kNoSlot ? nullptr : &values[static_cast<std::size_t>(slot)]);
  return KernelContext{*step.node, step.opset, std::move(inputs),
                       std::vector<Tensor>(step.output_slots.size()), threads};
}

}  // namespace

ReferenceExecutable::ReferenceExecutable(const Graph& graph, const OpRegistry& ops)
    : graph_(std::make_unique<const Graph>(graph)), plan_(build_execution_plan(*graph_, ops)) {}

std::vector<ValueInfo> ReferenceExecutable::infos_of(const std::vector<std::string>& names) const {
  std::vector<ValueInfo> infos;
  for (const std::string& name : names) {
    const ValueInfo* info = graph_->value_info(name);
    infos.push_back(info != nullptr ? *info : ValueInfo{name, DType::Undefined, std::nullopt});
  }
  return infos;
}

std::vector<ValueInfo> ReferenceExecutable::input_infos() const {
  return infos_of(graph_->inputs);
}
std::vector<ValueInfo> ReferenceExecutable::output_infos() const {
  return infos_of(graph_->outputs);
}

TensorMap ReferenceExecutable::execute(const TensorMap& inputs, const RunOptions& options) {
  check_inputs(input_infos(), inputs);

  // Every kernel may assume contiguous inputs: graph inputs and kernel outputs are made
  // contiguous as they are stored (constants already are).
  std::vector<Tensor> values = plan_.initial_values;
  for (std::size_t i = 0; i < plan_.input_slots.size(); ++i)
    values[static_cast<std::size_t>(plan_.input_slots[i])] = inputs.at(graph_->inputs[i]).contiguous();

  std::optional<NodeDump> dump;
  if (!options.dump_dir.empty()) dump.emplace(options.dump_dir);
  const Clock::time_point run_start = Clock::now();
  try {
    for (std::size_t index = 0; index < plan_.steps.size(); ++index) {
      const PlanStep& step = plan_.steps[index];
      KernelContext context = make_context(step, values, options.threads);
      const Clock::time_point start = Clock::now();
      run_kernel(step, context);
      const Clock::time_point end = Clock::now();

      if (options.profile_sink != nullptr)
        options.profile_sink->record(
            node_profile_event(context, index, microseconds(start - run_start), microseconds(end - start)));
      if (dump) dump->record(*step.node, context.outputs);
      for (std::size_t i = 0; i < step.output_slots.size(); ++i)
        if (step.output_slots[i] != kNoSlot)
          values[static_cast<std::size_t>(step.output_slots[i])] = context.outputs[i].contiguous();
      for (const int slot : step.release_after) values[static_cast<std::size_t>(slot)] = Tensor();
    }
  } catch (...) {
    // The manifest of the nodes that did run is what one needs to debug the one that failed;
    // the run's own error is still the one reported.
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

}  // namespace asc::reference
