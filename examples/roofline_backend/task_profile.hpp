// One executed kernel as the roofline times it and msprof lists it.
#pragma once

#include <asc/sdk/backend/execution_plan.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/profiling.hpp>
#include <cstddef>

#include "roofline.hpp"
#include "soc_file.hpp"

namespace roofline {

// The node's cost facts for the tensors it just read and wrote (its op's cost function over their
// dtypes and shapes, so dynamic shapes are costed as run). An operator without a cost function
// counts as pure data movement (asc::data_movement_cost): its operands move at least once.
asc::CostFacts cost_of(const asc::PlanStep& step, const asc::KernelContext& context);

// The dtype the unit computes on: the first floating-point input's, else the first input's.
asc::DType operand_dtype(const asc::KernelContext& context);

// msprof's op_summary event for the task: operand columns from the SDK (node_profile_event),
// task type and block dim from the roofline, and metrics that need no PMU:
//   aicore_time(us) (aiv_time(us) for a split SoC's vector task)  the core time, max(compute, memory)
//   memory_bound        memory time / compute time (msprof: mte2 ratio over the compute pipe's;
//                       N/A for pure data movement)
//   cube_utilization(%) Cube tasks: flops over the cube peak for the task's duration
// and beyond msprof's columns: flops, device_memory_bytes, roofline_compute_us,
// roofline_memory_us, arithmetic_intensity (flop/byte). memory_copy_us is the memory time the
// compute does not hide. The pipe ratios stay N/A: a roofline models no pipes.
asc::ProfileEvent task_event(const asc::KernelContext& context, std::size_t task_id, double start_us,
                             const asc::CostFacts& cost, const TaskTime& time, const SocFacts& soc);

}  // namespace roofline
