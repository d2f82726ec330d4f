// Backend support (since SDK 0.3): a kernel call as a profile event, with msprof's operand columns.
#pragma once

#include "asc/sdk/op_registry.hpp"
#include "asc/sdk/profiling.hpp"
#include <cstddef>

namespace asc {

// The event for a finished kernel call: names, provenance, operand shapes/dtypes/formats in
// msprof's spelling ("1,3,224,224;64,3,7,7", "FLOAT;FLOAT16", "NCHW;FRACTAL_Z"), and the given
// start and duration. Task type AI_CPU (a host kernel); a device backend overwrites task_type,
// block_dim and the metrics with what its device did.
ProfileEvent node_profile_event(const KernelContext& context, std::size_t task_id, double start_us,
                                double duration_us);

}  // namespace asc
