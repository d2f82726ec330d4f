#include "asc/sdk/msprof/memcpy_task.hpp"

namespace asc::msprof {

ProfileEvent host_copy_event(CopyDirection direction, std::int64_t bytes, double start_us, double duration_us) {
  ProfileEvent event;
  event.op_name = event.op_type = event.task_type = kMemcpyTaskType;
  event.block_dim = 0;
  event.start_us = start_us;
  event.duration_us = event.memory_copy_us = duration_us;
  event.metrics["size(B)"] = static_cast<double>(bytes);
  event.metrics["memcpy_operation"] = direction == CopyDirection::HostToDevice ? 1 : 2;
  return event;
}

bool is_host_copy(const ProfileEvent& event) { return event.task_type == kMemcpyTaskType; }

std::string memcpy_operation_name(const ProfileEvent& event) {
  const auto found = event.metrics.find("memcpy_operation");
  if (found == event.metrics.end()) return "other";
  if (found->second == 1) return "host to device";
  if (found->second == 2) return "device to host";
  return "other";
}

}  // namespace asc::msprof
