#include "roofline_stream.hpp"

#include <algorithm>
#include <asc/sdk/msprof/memcpy_task.hpp>
#include <utility>
#include <vector>

namespace roofline {
namespace {

// Keeps a run's events until the stream knows where the run sits on its timeline.
struct EventCapture : asc::ProfileSink {
  void record(const asc::ProfileEvent& event) override { events.push_back(event); }
  std::vector<asc::ProfileEvent> events;
};

std::int64_t tensor_bytes(const asc::TensorMap& tensors) {
  std::int64_t bytes = 0;
  for (const auto& [name, tensor] : tensors)
    if (tensor.defined()) bytes += static_cast<std::int64_t>(tensor.nbytes());
  return bytes;
}

}  // namespace

void RooflineStream::enqueue_run(asc::Executable& executable, const SocFacts& soc, asc::TensorMap inputs,
                                 asc::TensorMap* outputs, asc::RunOptions options) {
  enqueue([id = id_, timeline = timeline_, &executable, &soc, inputs = std::move(inputs), outputs,
           options = std::move(options)]() mutable {
    asc::ProfileSink* sink = options.profile_sink;
    double& clock_us = timeline->clock_us;
    auto publish = [&](asc::ProfileEvent event) {
      event.stream_id = id;
      event.task_id = timeline->next_task_id++;
      if (sink != nullptr) sink->record(event);
    };
    // A copy over the host link: bytes / pcie_bandwidth_gbs (1 GB/s = 1e3 bytes/us).
    auto copy = [&](asc::msprof::CopyDirection direction, std::int64_t bytes) {
      const double duration_us = static_cast<double>(bytes) / (soc.pcie_bandwidth_gbs * 1e3);
      publish(asc::msprof::host_copy_event(direction, bytes, clock_us, duration_us));
      clock_us += duration_us;
    };

    copy(asc::msprof::CopyDirection::HostToDevice, tensor_bytes(inputs));
    EventCapture capture;
    options.profile_sink = &capture;
    *outputs = executable.execute(inputs, options);  // a failure reaches synchronize()
    double run_us = 0;
    for (asc::ProfileEvent& event : capture.events) {
      run_us = std::max(run_us, event.start_us + event.duration_us);
      event.start_us += clock_us;
      publish(std::move(event));
    }
    clock_us += run_us;
    copy(asc::msprof::CopyDirection::DeviceToHost, tensor_bytes(*outputs));
  });
}

}  // namespace roofline
