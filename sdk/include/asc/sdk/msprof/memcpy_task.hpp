// Host <-> device copies as profile tasks: msprof lists them as MEMCPY_ASYNC tasks in task_time
// and the timeline (not in op_summary / op_statistic, which list operators). A runtime that
// simulates the host link records one per copy.
#pragma once

#include <cstdint>
#include <string>

#include "asc/sdk/profiling.hpp"

namespace asc::msprof {

inline constexpr const char* kMemcpyTaskType = "MEMCPY_ASYNC";

enum class CopyDirection : std::uint8_t { HostToDevice, DeviceToHost };

// Op name, type and task type "MEMCPY_ASYNC"; metrics "size(B)" and "memcpy_operation" (msprof's
// operation code: 1 host to device, 2 device to host).
ProfileEvent host_copy_event(CopyDirection direction, std::int64_t bytes, double start_us, double duration_us);
bool is_host_copy(const ProfileEvent& event);
// msprof's name of a copy's direction ("host to device", "device to host", "other").
std::string memcpy_operation_name(const ProfileEvent& event);

}  // namespace asc::msprof
