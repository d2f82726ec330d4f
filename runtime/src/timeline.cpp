#include "timeline.hpp"

#include <algorithm>

namespace asc::acl {

double Timeline::place(Engine engine, double ready_us, double duration_us) {
  std::lock_guard lock(mutex_);
  auto& busy = busy_[static_cast<std::size_t>(engine)];
  double start = ready_us;
  auto position = busy.begin();
  for (; position != busy.end(); ++position) {
    if (position->second <= start) continue;            // ends before we could start
    if (position->first >= start + duration_us) break;  // the gap before it fits
    start = position->second;                            // overlaps: try after it
  }
  if (duration_us > 0) busy.insert(position, {start, start + duration_us});
  return start;
}

void Timeline::clear() {
  std::lock_guard lock(mutex_);
  for (auto& busy : busy_) busy.clear();
}

}  // namespace asc::acl
