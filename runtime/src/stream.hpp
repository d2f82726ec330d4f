// A stream: a FIFO of device work run by its own worker thread, so that enqueuing returns at
// once and the work overlaps with the host.
//
// Each piece of work is a function of the simulated time the stream reaches it (the later of
// the host's clock when it was enqueued and the end of the previous piece); it does its
// functional part, places itself on the device timeline, and returns the time it ends. The
// first failure is kept and reported by the next synchronize(); later work still runs.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "api_guard.hpp"

namespace asc::acl {

class Stream {
 public:
  using Work = std::function<double(double ready_us)>;

  Stream();  // takes the next stream id
  ~Stream();  // runs what is queued, then stops the worker
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Queues `work`, not to start before `not_before_us` (the enqueuing thread's clock).
  void enqueue(Work work, double not_before_us);
  // Waits for every queued piece; returns the simulated end of the last one. Throws the first
  // failure since the previous synchronize().
  double synchronize();
  // Whether everything queued has run.
  bool idle();
  // Waits for everything queued, leaving a failure for synchronize().
  void wait_idle();
  // The stream's id in profiles (msprof's Stream ID): unique in the process.
  int id() const { return id_; }

 private:
  void run();

  const int id_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<Work, double>> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  double end_us_ = 0;
  std::optional<AclFailure> failure_;
  std::thread worker_;
};

}  // namespace asc::acl
