// Streams on the simulated NPU, with a simulated device clock.
//
// NpusimBackend::create_stream() returns an NpusimStream. NpusimExecutable::execute_async on it
// enqueues three pieces of work: the inputs' host-to-device copy over the simulated PCIe link,
// the model run, and the outputs' device-to-host copy. The functional run happens on the
// stream's worker thread (HostStream); the simulated times are placed on the device timeline in
// the order the host enqueued them, so they do not depend on thread timing:
//
//   start = max(the host's clock when it enqueued, the stream's previous work, the engine free)
//
// The engines are one PCIe direction each (H2D and D2H: the link is full duplex) and the AI
// cores, which run one model execution at a time. The host's clock advances only when it
// blocks: synchronize() moves it to the stream's completion. So copy-in / compute / copy-out of
// successive iterations on two streams overlap (seed 2's async pipeline), while enqueue +
// synchronize per iteration serialises them.
//
// Streams created while another stream is alive share its device; when every stream is gone,
// the next one starts a fresh device at time 0.
//
// Profiling: a run's profile sink receives, in device-time order, the H2D copy as a task, the
// run's kernels and the D2H copy as a task, each with the next task id of its stream (ids count
// up per stream, as the runtime's do). Copies are msprof's MEMCPY_ASYNC tasks.
#pragma once

#include <asc/sdk/backend.hpp>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "soc_config.hpp"

namespace asc::npusim {

enum class DeviceEngine { HostToDevice, Compute, DeviceToHost };
std::string engine_name(DeviceEngine engine);  // "H2D", "compute", "D2H"

// One piece of work as it landed on the device timeline.
struct TimelineEntry {
  int stream = 0;
  DeviceEngine engine = DeviceEngine::Compute;
  std::int64_t bytes = 0;  // copies: bytes moved
  double start_us = 0, end_us = 0;
};

// Bytes of every defined tensor of `tensors`: what a host <-> device copy of them moves.
std::int64_t tensor_bytes(const TensorMap& tensors);

// Microseconds to move `bytes` over the SoC's host link (pcie_bandwidth_gbs).
double host_link_us(const SocConfig& soc, std::int64_t bytes);

// Copies reach profiles as msprof's MEMCPY_ASYNC tasks (asc/sdk/msprof/memcpy_task.hpp).

class SimulatedDevice {
 public:
  // The device the live streams share, or a fresh one.
  static std::shared_ptr<SimulatedDevice> shared();

  int new_stream_id();
  // Everything enqueued so far, in enqueue order (waits for the work to finish).
  std::vector<TimelineEntry> timeline();
  // The host's simulated clock: where its last synchronize() left it.
  double host_time_us();

  // For NpusimStream. Work is enqueued by the host thread (its duration known then, or given
  // later by the stream's worker through complete()) and placed on the timeline in enqueue order.
  struct Work {
    TimelineEntry entry;
    double not_before_us = 0;  // the host's clock when it enqueued the work
    double duration_us = 0;
    bool done = false;
    std::vector<ProfileEvent> events;  // a run's events, relative to its start
    ProfileSink* sink = nullptr;
  };
  std::size_t enqueue(int stream, DeviceEngine engine);
  void complete(std::size_t index, double duration_us, std::int64_t bytes, std::vector<ProfileEvent> events,
                ProfileSink* sink);
  // Places every piece of work up to `index` on the timeline, and returns the end of `index`.
  double resolve_through(std::size_t index);
  void advance_host_to(double time_us);

 private:
  std::mutex mutex_;
  std::condition_variable completed_;
  std::vector<Work> work_;
  std::size_t resolved_ = 0;
  double host_us_ = 0;
  double engine_free_us_[3] = {0, 0, 0};
  std::vector<double> stream_clock_us_;
  std::vector<int> next_task_id_;  // per stream
};

class NpusimStream : public HostStream {
 public:
  explicit NpusimStream(std::shared_ptr<SimulatedDevice> device);

  // H2D copy of `inputs`, executable.execute() on the worker, D2H copy of its outputs. Profile
  // events of the run reach options.profile_sink when the timeline is resolved (synchronize(),
  // completion_us(), timeline()), shifted to the run's device time and tagged with this
  // stream's id.
  void enqueue_run(Executable& executable, const SocConfig& soc, TensorMap inputs, TensorMap* outputs,
                   RunOptions options);
  // Waits for the stream's work, then moves the host's clock to its completion; rethrows the
  // first error of the work.
  void synchronize() override;

  int id() const noexcept { return id_; }
  // Device time at which this stream's last enqueued work ends (waits for it); 0 when empty.
  double completion_us();
  SimulatedDevice& device() noexcept { return *device_; }

 private:
  std::shared_ptr<SimulatedDevice> device_;
  int id_;
  std::size_t last_work_ = 0;
  bool has_work_ = false;
};

}  // namespace asc::npusim
