// Profile events for the reference backend: one per node, timed by the host's wall clock.
#pragma once

#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/profiling.hpp>
#include <cstddef>

namespace asc::reference {

// The event for a finished kernel call: names, provenance, operand shapes/dtypes/formats in
// msprof's spelling, and the host time it took. Task type AI_CPU: it ran on the host CPU.
ProfileEvent node_profile_event(const KernelContext& context, std::size_t task_id, double start_us,
                                double duration_us);

}  // namespace asc::reference
