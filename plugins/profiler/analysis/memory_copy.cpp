#include "analysis/memory_copy.hpp"

#include <algorithm>

#include "analysis/op_categories.hpp"
#include "analysis/pmu_metrics.hpp"

namespace asc::profiler {

MemoryCopy memory_copy_of(const ProfileEvent& event) {
  const double duration = std::max(0.0, event.duration_us);
  auto capped = [&](double us) { return std::clamp(us, 0.0, duration); };
  if (is_memcpy_task(event)) return {duration, "memcpy_task"};
  if (event.memory_copy_us > 0) return {capped(event.memory_copy_us), "reported"};
  const auto mte2_time = pipe_time_us(event, "mte2");
  const auto mte3_time = pipe_time_us(event, "mte3");
  if (mte2_time || mte3_time) return {capped(mte2_time.value_or(0) + mte3_time.value_or(0)), "pmu_time"};
  const auto mte2_ratio = pipe_ratio(event, "mte2");
  const auto mte3_ratio = pipe_ratio(event, "mte3");
  if (mte2_ratio || mte3_ratio)
    return {capped((mte2_ratio.value_or(0) + mte3_ratio.value_or(0)) * duration), "pmu_ratio"};
  if (is_data_movement_type(event.op_type)) return {duration, "data_movement_op"};
  return {0.0, "none"};
}

}  // namespace asc::profiler
