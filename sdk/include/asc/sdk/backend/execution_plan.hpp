// Backend support (since SDK 0.3): a graph compiled for node-by-node execution on the host —
// nodes in order with their kernels, every value in a numbered slot, and the point after which
// each intermediate value can be freed. The reference backend runs exactly this; the simulator
// runs it with fp16 storage and a timing model around each step; docs/backends.md shows a
// backend written from these pieces alone.
#pragma once

#include "asc/sdk/graph.hpp"
#include "asc/sdk/kernel_state.hpp"
#include "asc/sdk/op_registry.hpp"
#include "asc/sdk/tensor.hpp"
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace asc {

inline constexpr int kNoSlot = -1;

// One node's work.
struct PlanStep {
  const Node* node = nullptr;
  const OpDefinition* op = nullptr;
  std::int64_t opset = 0;
  std::vector<int> input_slots;   // kNoSlot for an omitted optional input
  std::vector<int> output_slots;  // kNoSlot for an omitted optional output
  // Slots whose last reader is this step; freed once it has run. Never constants or graph
  // outputs.
  std::vector<int> release_after;
  // Since SDK 0.5: per input, whether it is a constant slot (KernelContext::constant_inputs);
  // per output, whether every reader takes it channels-last and it is no graph output
  // (KernelContext::channels_last_outputs; store_outputs keeps such an output as it is); and
  // what the step's kernel keeps between runs (shared by copies of the plan).
  std::vector<bool> constant_inputs;
  std::vector<bool> channels_last_outputs;
  std::shared_ptr<KernelState> state;
  // Since SDK 0.8: per input, whether this step is the value's last reader and the value is no
  // graph input, output or constant, nor another input of the step (KernelContext::reusable_inputs).
  std::vector<bool> reusable_inputs;
};

struct ExecutionPlan {
  std::vector<PlanStep> steps;
  std::vector<std::string> slot_names;  // slot -> value name
  // Per slot: the initializer for constant slots, an undefined tensor otherwise. A run starts
  // from a copy (tensors share buffers, so constants are never copied).
  std::vector<Tensor> initial_values;
  std::vector<int> input_slots;   // graph inputs, in order
  std::vector<int> output_slots;  // graph outputs, in order
};

// Resolves every node's kernel (one EE2001 listing every node without one) and numbers the
// values. `graph` and `ops` must outlive the plan: steps point into both. Throws EE1003 naming
// the value when the graph reads a value nothing provides or writes one twice.
ExecutionPlan build_execution_plan(const Graph& graph, const OpRegistry& ops);

// The pieces of a run every backend built on the plan shares (values: one tensor per slot).
// The step's kernel context over the current values.
KernelContext make_context(const PlanStep& step, std::vector<Tensor>& values, int threads);
// Runs the step's kernel; every failure leaves as an asc::Error that names the node, and so does
// a declared output the kernel did not produce.
void run_kernel(const PlanStep& step, KernelContext& context);
// Stores the step's outputs into their slots and frees the slots whose last reader this step was.
// An output stays channels-last where step.channels_last_outputs allows it; every other output is
// made contiguous, so a kernel sees only the layouts its definition declares (InputMask).
void store_outputs(const PlanStep& step, std::vector<Tensor>& outputs, std::vector<Tensor>& values);
// The graph outputs, by name.
std::map<std::string, Tensor> collect_outputs(const ExecutionPlan& plan, const Graph& graph,
                                              const std::vector<Tensor>& values);

}  // namespace asc
