// The timing model's (and tiling's) view of one task, built from static shapes: the compiler
// builds it from a profile's shapes to choose the tiling, the executable from the same profile
// to time the task, so both see the same problem.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/op_registry.hpp>
#include <map>
#include <string>
#include <vector>

#include "compiled_model.hpp"
#include "timing_model.hpp"

namespace asc::npusim {

// One task from its operands' static types. `inputs`/`outputs` follow node.inputs/outputs
// (nullptr for omitted ones); `l2_resident_input_bytes` are the input bytes still in L2. The
// operator's cost function sees `soc` as its CostContext::target, with the timing model as the
// target's estimate_us, so that a self-scheduling operator ranks its tilings by this model.
TaskInput make_task_input(const SocConfig& soc, const Node& node, const OpDefinition* op, ComputeUnit unit,
                          DType compute_dtype, const std::vector<const ValueInfo*>& inputs,
                          const std::vector<const ValueInfo*>& outputs, std::int64_t l2_resident_input_bytes);

// The TaskInput of every task of `profile` (one per node of `graph`, in order): operand shapes
// from the profile's placements, host dtypes from the graph, and the L2 rule: an input is still
// in L2 when its reuse distance fits it (the bytes the tasks since its last use loaded and wrote,
// plus itself, at most the SoC's L2; an LRU cache).
std::vector<TaskInput> profile_task_inputs(const Graph& graph, const OpRegistry& ops, const CompiledProfile& profile,
                                           const SocConfig& soc);

}  // namespace asc::npusim
