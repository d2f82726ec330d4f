#include "npusim_stream.hpp"

#include <asc/sdk/msprof/memcpy_task.hpp>

#include <algorithm>
#include <asc/sdk/error.hpp>
#include <exception>
#include <utility>

#include "npusim_backend.hpp"
#include "npusim_executable.hpp"

namespace asc::npusim {
namespace {

// Keeps a run's events; the device forwards them once it knows when the run started.
struct EventCapture : ProfileSink {
  void record(const ProfileEvent& event) override { events.push_back(event); }
  std::vector<ProfileEvent> events;
};

}  // namespace

std::string engine_name(DeviceEngine engine) {
  switch (engine) {
    case DeviceEngine::HostToDevice:
      return "H2D";
    case DeviceEngine::Compute:
      return "compute";
    case DeviceEngine::DeviceToHost:
      return "D2H";
  }
  return "unknown";
}

std::int64_t tensor_bytes(const TensorMap& tensors) {
  std::int64_t bytes = 0;
  for (const auto& [name, tensor] : tensors)
    if (tensor.defined()) bytes += tensor.numel() * static_cast<std::int64_t>(dtype_size(tensor.dtype()));
  return bytes;
}

double host_link_us(const SocConfig& soc, std::int64_t bytes) {
  return static_cast<double>(bytes) / (soc.pcie_bandwidth_gbs * 1e3);  // GB/s = 1e3 bytes/us
}

std::shared_ptr<SimulatedDevice> SimulatedDevice::shared() {
  static std::mutex mutex;
  static std::weak_ptr<SimulatedDevice> current;
  std::lock_guard lock(mutex);
  std::shared_ptr<SimulatedDevice> device = current.lock();
  if (!device) {
    device = std::make_shared<SimulatedDevice>();
    current = device;
  }
  return device;
}

int SimulatedDevice::new_stream_id() {
  std::lock_guard lock(mutex_);
  stream_clock_us_.push_back(0);
  next_task_id_.push_back(0);
  return static_cast<int>(stream_clock_us_.size()) - 1;
}

std::size_t SimulatedDevice::enqueue(int stream, DeviceEngine engine) {
  std::lock_guard lock(mutex_);
  Work work;
  work.entry.stream = stream;
  work.entry.engine = engine;
  work.not_before_us = host_us_;
  work_.push_back(std::move(work));
  return work_.size() - 1;
}

void SimulatedDevice::complete(std::size_t index, double duration_us, std::int64_t bytes,
                               std::vector<ProfileEvent> events, ProfileSink* sink) {
  {
    std::lock_guard lock(mutex_);
    Work& work = work_.at(index);
    work.duration_us = duration_us;
    work.entry.bytes = bytes;
    work.events = std::move(events);
    work.sink = sink;
    work.done = true;
  }
  completed_.notify_all();
}

double SimulatedDevice::resolve_through(std::size_t index) {
  std::unique_lock lock(mutex_);
  completed_.wait(lock, [&] {
    for (std::size_t i = resolved_; i <= index; ++i)
      if (!work_.at(i).done) return false;
    return true;
  });
  for (; resolved_ <= index; ++resolved_) {
    Work& work = work_[resolved_];
    TimelineEntry& entry = work.entry;
    double& engine_free = engine_free_us_[static_cast<int>(entry.engine)];
    double& stream_clock = stream_clock_us_.at(static_cast<std::size_t>(entry.stream));
    entry.start_us = std::max({work.not_before_us, stream_clock, engine_free});
    entry.end_us = entry.start_us + work.duration_us;
    engine_free = stream_clock = entry.end_us;
    if (work.sink != nullptr) {
      if (entry.engine != DeviceEngine::Compute)
        work.events.push_back(msprof::host_copy_event(entry.engine == DeviceEngine::HostToDevice
                                                          ? msprof::CopyDirection::HostToDevice
                                                          : msprof::CopyDirection::DeviceToHost,
                                                      entry.bytes, 0, work.duration_us));
      int& next_task_id = next_task_id_.at(static_cast<std::size_t>(entry.stream));
      for (ProfileEvent& event : work.events) {
        event.start_us += entry.start_us;
        event.stream_id = entry.stream;
        event.task_id = next_task_id++;
        work.sink->record(event);
      }
    }
    work.events.clear();
  }
  return work_[index].entry.end_us;
}

std::vector<TimelineEntry> SimulatedDevice::timeline() {
  std::size_t count = 0;
  {
    std::lock_guard lock(mutex_);
    count = work_.size();
  }
  if (count > 0) resolve_through(count - 1);
  std::lock_guard lock(mutex_);
  std::vector<TimelineEntry> entries;
  for (std::size_t i = 0; i < count; ++i) entries.push_back(work_[i].entry);
  return entries;
}

double SimulatedDevice::host_time_us() {
  std::lock_guard lock(mutex_);
  return host_us_;
}

void SimulatedDevice::advance_host_to(double time_us) {
  std::lock_guard lock(mutex_);
  host_us_ = std::max(host_us_, time_us);
}

NpusimStream::NpusimStream(std::shared_ptr<SimulatedDevice> device)
    : device_(std::move(device)), id_(device_->new_stream_id()) {}

void NpusimStream::enqueue_run(Executable& executable, const SocConfig& soc, TensorMap inputs, TensorMap* outputs,
                               RunOptions options) {
  const std::int64_t input_bytes = tensor_bytes(inputs);
  const std::size_t h2d = device_->enqueue(id_, DeviceEngine::HostToDevice);
  device_->complete(h2d, host_link_us(soc, input_bytes), input_bytes, {}, options.profile_sink);
  const std::size_t run = device_->enqueue(id_, DeviceEngine::Compute);
  const std::size_t d2h = device_->enqueue(id_, DeviceEngine::DeviceToHost);
  last_work_ = d2h;
  has_work_ = true;
  // `executable` and its `soc` outlive the stream's work (Executable::execute_async's contract).
  enqueue([device = device_, &executable, &soc, inputs = std::move(inputs), outputs,
           options = std::move(options), run, d2h]() mutable {
    ProfileSink* sink = options.profile_sink;
    EventCapture capture;
    options.profile_sink = &capture;
    try {
      *outputs = executable.execute(inputs, options);
    } catch (...) {
      device->complete(run, 0, 0, {}, nullptr);  // a failed run takes no device time
      device->complete(d2h, 0, 0, {}, nullptr);
      throw;
    }
    double run_us = 0;
    for (const ProfileEvent& event : capture.events) run_us = std::max(run_us, event.start_us + event.duration_us);
    device->complete(run, run_us, 0, std::move(capture.events), sink);
    const std::int64_t output_bytes = tensor_bytes(*outputs);
    device->complete(d2h, host_link_us(soc, output_bytes), output_bytes, {}, sink);
  });
}

void NpusimStream::synchronize() {
  std::exception_ptr error;
  try {
    HostStream::synchronize();
  } catch (...) {
    error = std::current_exception();
  }
  if (has_work_) device_->advance_host_to(device_->resolve_through(last_work_));
  if (error) std::rethrow_exception(error);
}

double NpusimStream::completion_us() { return has_work_ ? device_->resolve_through(last_work_) : 0; }

// NpusimBackend's and NpusimExecutable's stream entry points live here, with the streams.
std::unique_ptr<Stream> NpusimBackend::create_stream() const {
  return std::make_unique<NpusimStream>(SimulatedDevice::shared());
}

void NpusimExecutable::execute_async(Stream& stream, TensorMap inputs, TensorMap* outputs, RunOptions options) {
  auto* simulated = dynamic_cast<NpusimStream*>(&stream);
  if (simulated == nullptr) {  // another backend's stream: no simulated clock to advance
    Executable::execute_async(stream, std::move(inputs), outputs, std::move(options));
    return;
  }
  if (outputs == nullptr) throw Error(ErrorCode::Internal, "execute_async: no output map given");
  simulated->enqueue_run(*this, soc(), std::move(inputs), outputs, std::move(options));
}

}  // namespace asc::npusim
