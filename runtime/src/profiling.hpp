// What the runtime's device work leaves for profiling: while aclprofStart is in force, every
// copy and every model task is kept with its stream and simulated start and duration (us).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "asc/sdk/profiling.hpp"

namespace asc::acl {

enum class CopyDirection { HostToDevice, DeviceToHost, DeviceToDevice };

class Profiler {
 public:
  bool collecting();
  void record_copy(int stream_id, CopyDirection direction, std::size_t bytes, double start_us, double duration_us);
  // A model run's task events (start_us relative to the run) placed at `start_us`.
  void record_model(std::uint32_t model_id, const std::string& model_name, int stream_id, double start_us,
                    std::vector<ProfileEvent> events);
  void start();
  // The events kept since start(), in time order; collection stops.
  std::vector<ProfileEvent> stop();
  const std::string& model_name();

 private:
  std::mutex mutex_;
  bool collecting_ = false;
  std::vector<ProfileEvent> events_;
  std::vector<int> next_task_id_;  // per stream
  std::string model_name_;
  int task_id(int stream_id);
};

Profiler& profiler();

}  // namespace asc::acl
