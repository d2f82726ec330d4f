// How much of a task's device time moved data between memory and the AI Core (the seed's
// memory_copy_time), and what that figure rests on.
#pragma once

#include <asc/sdk/profiling.hpp>
#include <string>

namespace asc::profiler {

struct MemoryCopy {
  double us = 0;
  // "memcpy_task"      the task is a memory copy: all of its duration
  // "reported"         the producer (a backend) set ProfileEvent::memory_copy_us
  // "pmu_time"         MTE2 (GM -> AI Core) + MTE3 (AI Core -> GM) busy time from the PMU
  // "pmu_ratio"        (mte2_ratio + mte3_ratio) x Task Duration, when only ratios are present
  // "data_movement_op" no PMU data, and the operator only rearranges data: all of its duration
  // "none"             no PMU data on a compute operator: 0
  std::string basis;
};

// Every figure is capped at the task's duration (MTE2 and MTE3 can overlap, so their sum is an
// upper bound of the time data was moving).
MemoryCopy memory_copy_of(const ProfileEvent& event);

}  // namespace asc::profiler
