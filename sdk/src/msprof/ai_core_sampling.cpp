#include "asc/sdk/msprof/ai_core_sampling.hpp"

#include <algorithm>
#include "asc/sdk/error.hpp"
#include <cmath>

namespace asc::msprof {
namespace {

// Which metrics of a task describe one core of a kind (task_event.cpp's names).
struct CoreKind {
  std::string busy_metric;
  std::string prefix;
  std::vector<std::string> pipes;
};

const CoreKind kCoupled{"aicore_time(us)", "", {"vec", "mac", "scalar", "mte1", "mte2", "mte3"}};
const CoreKind kCube{"aicore_time(us)", "aic_", {"mac", "scalar", "mte1", "mte2", "fixpipe"}};
const CoreKind kVector{"aiv_time(us)", "aiv_", {"vec", "scalar", "mte2", "mte3"}};

double metric(const ProfileEvent& event, const std::string& name) {
  const auto found = event.metrics.find(name);
  return found == event.metrics.end() ? 0 : found->second;
}

class GroupSampler {
 public:
  GroupSampler(const CoreKind& kind, int cores, double start_us, double period_us, std::size_t windows)
      : kind_(kind), start_us_(start_us), period_us_(period_us) {
    group_.pipes = kind.pipes;
    group_.cores.resize(static_cast<std::size_t>(cores));
    busy_in_window_.assign(windows, std::vector<double>(static_cast<std::size_t>(cores), 0.0));
  }

  void add(const ProfileEvent& event) {
    const double busy = metric(event, kind_.busy_metric);
    const int cores = static_cast<int>(group_.cores.size());
    if (event.block_dim <= 0 || busy <= 0 || cores == 0) return;
    const int used = std::min(event.block_dim, cores);
    const int waves = (event.block_dim + used - 1) / used;  // blocks on the busiest core
    for (int core = 0; core < used; ++core) {
      const int blocks = event.block_dim / used + (core < event.block_dim % used ? 1 : 0);
      const double share = static_cast<double>(blocks) / waves;
      CoreActivity& activity = group_.cores[static_cast<std::size_t>(core)];
      activity.busy_us += busy * share;
      for (const std::string& pipe : kind_.pipes)
        activity.pipes[pipe] += metric(event, kind_.prefix + pipe + "_time(us)") * share;
      spread(event, static_cast<std::size_t>(core), busy * share);
    }
  }

  CoreGroupSampling finish(double end_us) {
    for (std::size_t w = 0; w < busy_in_window_.size(); ++w) {
      UtilizationSample sample;
      sample.start_us = start_us_ + static_cast<double>(w) * period_us_;
      sample.end_us = std::min(sample.start_us + period_us_, end_us);
      const double length = sample.end_us - sample.start_us;
      for (const double busy : busy_in_window_[w])
        sample.utilization_percent.push_back(length > 0 ? std::min(100.0, 100.0 * busy / length) : 0.0);
      group_.samples.push_back(std::move(sample));
    }
    return std::move(group_);
  }

 private:
  // Adds a core's busy time, spread evenly over the task's interval, to the windows it crosses.
  void spread(const ProfileEvent& event, std::size_t core, double busy) {
    const double begin = event.start_us, end = event.start_us + event.duration_us;
    if (end <= begin) return;
    const double density = busy / (end - begin);
    const auto last_window = static_cast<long long>(busy_in_window_.size()) - 1;
    auto window = std::clamp(static_cast<long long>(std::floor((begin - start_us_) / period_us_)), 0LL, last_window);
    for (; window <= last_window; ++window) {
      const double w_begin = start_us_ + static_cast<double>(window) * period_us_;
      const double w_end = window == last_window ? std::max(end, w_begin + period_us_) : w_begin + period_us_;
      const double overlap = std::min(end, w_end) - std::max(begin, w_begin);
      if (overlap > 0) busy_in_window_[static_cast<std::size_t>(window)][core] += density * overlap;
      if (w_end >= end) break;
    }
  }

  const CoreKind& kind_;
  double start_us_, period_us_;
  CoreGroupSampling group_;
  std::vector<std::vector<double>> busy_in_window_;  // [window][core]
};

}  // namespace

AiCoreSampling sample_ai_cores(const std::vector<ProfileEvent>& events, const DeviceInfo& device, double period_us) {
  if (!(period_us > 0)) throw Error(ErrorCode::Internal, "AI Core sampling period must be positive");
  AiCoreSampling sampling;
  sampling.period_us = period_us;
  bool any = false;
  for (const ProfileEvent& event : events) {
    sampling.start_us = any ? std::min(sampling.start_us, event.start_us) : event.start_us;
    sampling.end_us = any ? std::max(sampling.end_us, event.start_us + event.duration_us)
                          : event.start_us + event.duration_us;
    any = true;
  }
  const double duration = sampling.end_us - sampling.start_us;
  // ceil, with a little slack so that a duration of exactly k periods gives k samples.
  const std::size_t windows =
      duration > 0 ? static_cast<std::size_t>(std::max(1.0, std::ceil(duration / period_us - 1e-9))) : 0;

  GroupSampler ai_cores(device.split_vector_cores ? kCube : kCoupled, device.ai_core_count, sampling.start_us, period_us, windows);
  GroupSampler vector_cores(kVector, device.split_vector_cores ? device.vector_core_count : 0, sampling.start_us, period_us, windows);
  for (const ProfileEvent& event : events) {
    if (event.task_type == "AI_CORE" || (!device.split_vector_cores && event.task_type == "AI_VECTOR_CORE"))
      ai_cores.add(event);
    else if (device.split_vector_cores && event.task_type == "AI_VECTOR_CORE")
      vector_cores.add(event);
  }
  sampling.ai_cores = ai_cores.finish(sampling.end_us);
  if (device.split_vector_cores) sampling.vector_cores = vector_cores.finish(sampling.end_us);
  return sampling;
}

}  // namespace asc::msprof
