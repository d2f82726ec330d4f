#include "roofline_executable.hpp"

#include <asc/sdk/backend/input_check.hpp>
#include <asc/sdk/backend/node_dump.hpp>
#include <asc/sdk/backend/output_check.hpp>
#include <asc/sdk/error.hpp>
#include <optional>

#include "roofline.hpp"
#include "roofline_stream.hpp"
#include "task_profile.hpp"

namespace roofline {

RooflineExecutable::RooflineExecutable(const asc::Graph& graph, const asc::OpRegistry& ops, SocFacts soc)
    : graph_(std::make_unique<const asc::Graph>(graph)),
      plan_(asc::build_execution_plan(*graph_, ops)),  // EE2001 lists every node without a kernel
      soc_(std::move(soc)) {}

std::vector<asc::ValueInfo> RooflineExecutable::infos_of(const std::vector<std::string>& names) const {
  std::vector<asc::ValueInfo> infos;
  for (const std::string& name : names) {
    const asc::ValueInfo* info = graph_->value_info(name);
    infos.push_back(info != nullptr ? *info : asc::ValueInfo{name, asc::DType::Undefined, std::nullopt});
  }
  return infos;
}

std::vector<asc::ValueInfo> RooflineExecutable::input_infos() const { return infos_of(graph_->inputs); }
std::vector<asc::ValueInfo> RooflineExecutable::output_infos() const { return infos_of(graph_->outputs); }

asc::TensorMap RooflineExecutable::execute(const asc::TensorMap& inputs, const asc::RunOptions& options) {
  asc::check_inputs(input_infos(), inputs);  // EE8002 / EE8003 naming the input

  // The plan's constants, then the caller's inputs (contiguous: every kernel may assume so).
  std::vector<asc::Tensor> values = plan_.initial_values;
  for (std::size_t i = 0; i < plan_.input_slots.size(); ++i)
    values[static_cast<std::size_t>(plan_.input_slots[i])] = inputs.at(graph_->inputs[i]).contiguous();

  // The seed's naming, {node}.{output}.{timestamp}.bin/.npy, as NPU dumps are named; op_validate
  // finds the tensors through manifest.json whatever the naming.
  std::optional<asc::NodeDump> dump;
  if (!options.dump_dir.empty()) dump.emplace(options.dump_dir, asc::DumpNaming::Seed);
  double clock_us = 0;  // device time since the run started
  std::size_t task_id = 0;
  try {
    for (const asc::PlanStep& step : plan_.steps) {
      asc::KernelContext context = asc::make_context(step, values, options.threads);
      asc::run_kernel(step, context);  // EE8001 naming the node on any failure
      asc::check_kernel_outputs(step, context, *graph_);  // EE8001 for outputs unlike the inferred types
      const asc::CostFacts cost = cost_of(step, context);
      if (cost.unit != asc::ComputeUnit::None) {  // metadata-only nodes are no device task
        const TaskTime time = task_time(soc_, cost, operand_dtype(context));
        if (options.profile_sink != nullptr)
          options.profile_sink->record(task_event(context, task_id, clock_us, cost, time, soc_));
        clock_us += time.duration_us;
        ++task_id;
      }
      if (dump) dump->record(*step.node, context.outputs);
      asc::store_outputs(step, context.outputs, values);
    }
  } catch (...) {
    if (dump) dump->write_manifest_after_failure();
    throw;
  }
  if (dump) dump->write_manifest();
  return asc::collect_outputs(plan_, *graph_, values);
}

void RooflineExecutable::execute_async(asc::Stream& stream, asc::TensorMap inputs, asc::TensorMap* outputs,
                                       asc::RunOptions options) {
  auto* ours = dynamic_cast<RooflineStream*>(&stream);
  if (ours == nullptr) {  // another backend's stream: it has no device clock of ours to advance
    Executable::execute_async(stream, std::move(inputs), outputs, std::move(options));
    return;
  }
  if (outputs == nullptr) throw asc::Error(asc::ErrorCode::Internal, "execute_async: no output map given");
  ours->enqueue_run(*this, soc_, std::move(inputs), outputs, std::move(options));
}

}  // namespace roofline
