#include "asc/sdk/backend/execution_plan.hpp"

#include <algorithm>
#include <new>

#include "asc/sdk/error.hpp"
#include <exception>
#include <unordered_map>

namespace asc {
namespace {

class SlotTable {
 public:
  explicit SlotTable(ExecutionPlan& plan) : plan_(plan) {}

  int define(const std::string& value, const std::string& definer) {
    if (slots_.count(value) != 0)
      throw Error(ErrorCode::ModelCheckFailed,
                  "value '" + value + "' is defined twice (again by " + definer + ")");
    const int slot = static_cast<int>(plan_.slot_names.size());
    slots_.emplace(value, slot);
    plan_.slot_names.push_back(value);
    plan_.initial_values.emplace_back();
    return slot;
  }

  int lookup(const std::string& value, const std::string& reader) const {
    const auto found = slots_.find(value);
    if (found == slots_.end())
      throw Error(ErrorCode::ModelCheckFailed,
                  reader + " reads value '" + value +
                      "', which no earlier node, graph input or initializer provides");
    return found->second;
  }

 private:
  ExecutionPlan& plan_;
  std::unordered_map<std::string, int> slots_;
};

// check_all_ops_supported() covers nodes without a definition; a definition without a compute
// function (inference only) cannot run here either.
void check_all_kernels_present(const ExecutionPlan& plan) {
  std::string missing;
  for (const PlanStep& step : plan.steps) {
    if (step.op == nullptr)
      missing += "\n  " + step.node->describe() + ": no operator definition";
    else if (!step.op->compute)
      missing += "\n  " + step.node->describe() + ": the definition from plugin '" + step.op->plugin +
                 "' has no kernel";
  }
  if (!missing.empty())
    throw Error(ErrorCode::UnsupportedOperator, "nodes without a reference kernel:" + missing);
}

// Frees each intermediate after its last reader; values nobody reads die right after their writer.
void plan_releases(ExecutionPlan& plan) {
  const std::size_t slot_count = plan.slot_names.size();
  std::vector<bool> kept(slot_count, false);
  for (std::size_t slot = 0; slot < slot_count; ++slot) kept[slot] = plan.initial_values[slot].defined();
  for (const int slot : plan.output_slots) kept[static_cast<std::size_t>(slot)] = true;

  std::vector<int> last_step(slot_count, -1);
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    for (const int slot : plan.steps[i].output_slots)
      if (slot != kNoSlot) last_step[static_cast<std::size_t>(slot)] = static_cast<int>(i);
    for (const int slot : plan.steps[i].input_slots)
      if (slot != kNoSlot) last_step[static_cast<std::size_t>(slot)] = static_cast<int>(i);
  }
  for (std::size_t slot = 0; slot < slot_count; ++slot)
    if (!kept[slot] && last_step[slot] >= 0)
      plan.steps[static_cast<std::size_t>(last_step[slot])].release_after.push_back(static_cast<int>(slot));

  // An input the step may overwrite: released after it, not the caller's (a graph input), and
  // read once by the step.
  std::vector<bool> graph_input(slot_count, false);
  for (const int slot : plan.input_slots) graph_input[static_cast<std::size_t>(slot)] = true;
  for (PlanStep& step : plan.steps) {
    step.reusable_inputs.assign(step.input_slots.size(), false);
    for (std::size_t i = 0; i < step.input_slots.size(); ++i) {
      const int slot = step.input_slots[i];
      if (slot == kNoSlot || graph_input[static_cast<std::size_t>(slot)]) continue;
      const bool released =
          std::find(step.release_after.begin(), step.release_after.end(), slot) != step.release_after.end();
      const bool read_once = std::count(step.input_slots.begin(), step.input_slots.end(), slot) == 1;
      step.reusable_inputs[i] = released && read_once;
    }
  }
}

// A value may stay channels-last when every step that reads it takes that input channels-last
// (OpDefinition::channels_last_inputs) and no graph output is it.
void plan_layouts(ExecutionPlan& plan) {
  const std::size_t slot_count = plan.slot_names.size();
  std::vector<bool> channels_last(slot_count, true);
  for (const int slot : plan.output_slots) channels_last[static_cast<std::size_t>(slot)] = false;
  for (const PlanStep& step : plan.steps)
    for (std::size_t i = 0; i < step.input_slots.size(); ++i) {
      const int slot = step.input_slots[i];
      const bool declared = i < 64 && (step.op->channels_last_inputs >> i & 1U) != 0;
      if (slot != kNoSlot && !declared) channels_last[static_cast<std::size_t>(slot)] = false;
    }
  for (PlanStep& step : plan.steps) {
    for (const int slot : step.input_slots)
      step.constant_inputs.push_back(slot != kNoSlot && plan.initial_values[static_cast<std::size_t>(slot)].defined());
    for (const int slot : step.output_slots)
      step.channels_last_outputs.push_back(slot != kNoSlot && channels_last[static_cast<std::size_t>(slot)]);
    step.state = std::make_shared<KernelState>();
  }
}

}  // namespace

ExecutionPlan build_execution_plan(const Graph& graph, const OpRegistry& ops) {
  check_all_ops_supported(ops, graph);

  ExecutionPlan plan;
  SlotTable slots(plan);
  for (const auto& [name, tensor] : graph.initializers) {
    const int slot = slots.define(name, "initializer '" + name + "'");
    plan.initial_values[static_cast<std::size_t>(slot)] = tensor.contiguous();
  }
  for (const std::string& input : graph.inputs)
    plan.input_slots.push_back(slots.define(input, "graph input"));

  for (const Node* node : graph.nodes()) {
    PlanStep step;
    step.node = node;
    step.op = find_op(ops, graph, *node);
    step.opset = graph.opset(node->domain);
    for (const std::string& input : node->inputs)
      step.input_slots.push_back(input.empty() ? kNoSlot : slots.lookup(input, node->describe()));
    for (const std::string& output : node->outputs)
      step.output_slots.push_back(output.empty() ? kNoSlot : slots.define(output, node->describe()));
    plan.steps.push_back(std::move(step));
  }
  check_all_kernels_present(plan);

  for (const std::string& output : graph.outputs)
    plan.output_slots.push_back(slots.lookup(output, "graph output"));
  plan_releases(plan);
  plan_layouts(plan);
  return plan;
}

KernelContext make_context(const PlanStep& step, std::vector<Tensor>& values, int threads) {
  std::vector<const Tensor*> inputs;
  inputs.reserve(step.input_slots.size());
  for (const int slot : step.input_slots)
    inputs.push_back(slot == kNoSlot ? nullptr : &values[static_cast<std::size_t>(slot)]);
  KernelContext context{*step.node, step.opset, std::move(inputs), std::vector<Tensor>(step.output_slots.size()),
                        threads};
  context.constant_inputs = step.constant_inputs;
  context.channels_last_outputs = step.channels_last_outputs;
  context.state = step.state.get();
  context.reusable_inputs = step.reusable_inputs;
  return context;
}

void run_kernel(const PlanStep& step, KernelContext& context) {
  const Node& node = *step.node;
  try {
    step.op->compute(context);
  } catch (const Error& e) {
    if (e.message().find("'" + node.name + "'") != std::string::npos) throw;
    throw Error(e.code(), node.describe() + ": " + e.message());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::MemoryAllocationFailed, node.describe() + ": the host has no memory left for the kernel");
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

void store_outputs(const PlanStep& step, std::vector<Tensor>& outputs, std::vector<Tensor>& values) {
  for (std::size_t i = 0; i < step.output_slots.size(); ++i) {
    if (step.output_slots[i] == kNoSlot) continue;
    const bool keep_layout = i < step.channels_last_outputs.size() && step.channels_last_outputs[i] &&
                             outputs[i].defined() && outputs[i].rank() >= 3 && outputs[i].is_channels_last();
    values[static_cast<std::size_t>(step.output_slots[i])] = keep_layout ? outputs[i] : outputs[i].contiguous();
  }
  for (const int slot : step.release_after) values[static_cast<std::size_t>(slot)] = Tensor();
}

std::map<std::string, Tensor> collect_outputs(const ExecutionPlan& plan, const Graph& graph,
                                              const std::vector<Tensor>& values) {
  std::map<std::string, Tensor> outputs;
  for (std::size_t i = 0; i < plan.output_slots.size(); ++i)
    outputs[graph.outputs[i]] = values[static_cast<std::size_t>(plan.output_slots[i])];
  return outputs;
}

}  // namespace asc
