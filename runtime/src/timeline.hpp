// The simulated device's timeline: which engine is busy when.
//
// Engines run concurrently with each other: the host-to-device and device-to-host directions of
// the host link (full duplex), on-device copies and memsets, and the AI cores (one model or
// kernel at a time). Work on one engine does not overlap: a new piece goes into the earliest
// gap, at or after the time it is ready, long enough to hold it.
#pragma once

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace asc::acl {

enum class Engine { HostToDevice, DeviceToHost, DeviceLocal, AiCore };
inline constexpr std::size_t kEngineCount = 4;

class Timeline {
 public:
  // Reserves `duration_us` on `engine` no earlier than `ready_us`; returns the start.
  double place(Engine engine, double ready_us, double duration_us);
  void clear();

 private:
  std::mutex mutex_;
  std::vector<std::pair<double, double>> busy_[kEngineCount];  // sorted, disjoint
};

}  // namespace asc::acl
