#include "reference_executable.hpp"

#include <chrono>
#include <optional>
#include <string>

#include <asc/sdk/backend/input_check.hpp>
#include <asc/sdk/backend/node_dump.hpp>
#include <asc/sdk/backend/operand_columns.hpp>
#include <asc/sdk/backend/output_check.hpp>

namespace asc::reference {
namespace {

using Clock = std::chrono::steady_clock;

double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
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
      check_kernel_outputs(step, context, *graph_);

      if (options.profile_sink != nullptr)
        options.profile_sink->record(
            node_profile_event(context, index, microseconds(start - run_start), microseconds(end - start)));
      if (dump) dump->record(*step.node, context.outputs);
      store_outputs(step, context.outputs, values);
    }
  } catch (...) {
    if (dump) dump->write_manifest_after_failure();
    throw;
  }
  if (dump) dump->write_manifest();
  return collect_outputs(plan_, *graph_, values);
}

}  // namespace asc::reference
