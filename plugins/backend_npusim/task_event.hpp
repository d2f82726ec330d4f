// A simulated task as a profile event: msprof's op_summary fields and PMU column names. Split
// products (910B) use msprof's aic_/aiv_ prefixed columns, coupled ones (310, 310P, 910) the
// unprefixed ones; on coupled cores the cube's L0C results leave through UB, so FixPipe time is
// reported as MTE3.
#pragma once

#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/profiling.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "soc_config.hpp"
#include "timing_model.hpp"

namespace asc::npusim {

// `compute_dtype` replaces float operands' dtypes in the event (what the NPU stores).
ProfileEvent task_event(const KernelContext& context, std::size_t task_id, const TaskTiming& timing,
                        const SocConfig& soc, double start_us, DType compute_dtype);

}  // namespace asc::npusim
