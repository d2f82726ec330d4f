// The reference backend's compiled form of a graph: nodes in order with their kernels, every
// value in a numbered slot, and the point after which each intermediate value can be freed.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace asc::reference {

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

}  // namespace asc::reference
