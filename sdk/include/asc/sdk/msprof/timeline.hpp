// msprof_*.json: the Chrome-trace timeline of a collection.
//   pid 0 "Ascend Hardware": one lane per stream ("Stream <id>"), every task ("ph":"X") with
//         msprof's args (Model Id, Task Type, Physic Stream Id, Task Id, ...); MEMCPY_ASYNC copies
//         carry size(B), bandwidth(GB/s) and operation ("host to device" / "device to host")
//   pid 1 "AI Core (<soc>)": one lane per core, each task on the cores its blocks ran on
//   pid 2 "AI Core Utilization" (sample-based): counter events ("ph":"C") "Average" and
//         "Core <id>" with {"Utilization(%)": ...} at each sample's start
// PMU values appear in the task args only when the collection is task-based.
#pragma once

#include "asc/sdk/backend.hpp"
#include "asc/sdk/profiling.hpp"
#include <string>
#include <vector>

#include "asc/sdk/msprof/ai_core_sampling.hpp"
#include "asc/sdk/msprof/collection_options.hpp"

namespace asc::msprof {

// `sampling` is null unless the collection is sample-based.
std::string msprof_timeline(const std::vector<ProfileEvent>& events, const DeviceInfo& device,
                            const CollectionOptions& options, const AiCoreSampling* sampling);

}  // namespace asc::msprof
