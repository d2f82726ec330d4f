#include "profiling.hpp"

#include <algorithm>

namespace asc::acl {

bool Profiler::collecting() {
  std::lock_guard lock(mutex_);
  return collecting_;
}

int Profiler::task_id(int stream_id) {
  if (static_cast<std::size_t>(stream_id) >= next_task_id_.size()) next_task_id_.resize(static_cast<std::size_t>(stream_id) + 1, 0);
  return next_task_id_[static_cast<std::size_t>(stream_id)]++;
}

void Profiler::record_copy(int stream_id, CopyDirection direction, std::size_t bytes, double start_us, double duration_us) {
  std::lock_guard lock(mutex_);
  if (!collecting_) return;
  // msprof's MEMCPY_ASYNC task; memcpy_operation 1 = host to device, 2 = device to host, 3 = device to device.
  ProfileEvent event;
  event.op_name = event.op_type = event.task_type = "MEMCPY_ASYNC";
  event.block_dim = 0;
  event.stream_id = stream_id;
  event.task_id = task_id(stream_id);
  event.start_us = start_us;
  event.duration_us = event.memory_copy_us = duration_us;
  event.metrics["size(B)"] = static_cast<double>(bytes);
  event.metrics["memcpy_operation"] = direction == CopyDirection::HostToDevice   ? 1
                                      : direction == CopyDirection::DeviceToHost ? 2
                                                                                 : 3;
  events_.push_back(std::move(event));
}

void Profiler::record_model(std::uint32_t /*model_id*/, const std::string& model_name, int stream_id, double start_us,
                            std::vector<ProfileEvent> events) {
  std::lock_guard lock(mutex_);
  if (!collecting_) return;
  if (model_name_.empty()) model_name_ = model_name;
  for (ProfileEvent& event : events) {
    event.start_us += start_us;
    event.stream_id = stream_id;
    event.task_id = task_id(stream_id);
    events_.push_back(std::move(event));
  }
}

void Profiler::start() {
  std::lock_guard lock(mutex_);
  collecting_ = true;
  events_.clear();
  next_task_id_.clear();
  model_name_.clear();
}

std::vector<ProfileEvent> Profiler::stop() {
  std::lock_guard lock(mutex_);
  collecting_ = false;
  std::vector<ProfileEvent> events = std::move(events_);
  events_.clear();
  std::stable_sort(events.begin(), events.end(),
                   [](const ProfileEvent& a, const ProfileEvent& b) { return a.start_us < b.start_us; });
  return events;
}

const std::string& Profiler::model_name() { return model_name_; }

Profiler& profiler() {
  static Profiler instance;
  return instance;
}

}  // namespace asc::acl
