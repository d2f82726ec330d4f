#include "host_clock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>

#include "api_guard.hpp"

namespace asc::acl {
namespace {

using WallClock = std::chrono::steady_clock;

std::mutex latest_mutex;
double latest_us = 0;          // the furthest any thread's clock has got
std::atomic<unsigned> epoch{0};  // bumped by aclInit

// The calling thread's total time waiting for a CPU (runnable but not running), from Linux's
// /proc/thread-self/schedstat ("<on cpu ns> <waiting ns> <slices>"); 0 where the kernel does not
// keep it. On a loaded machine the wall time between two API calls grows by this wait without the
// program doing anything: counted as host time, it made the queued work start late (acl_profiles
// saw the AI core wait for a host that was only preempted). Sleeps and I/O waits still count.
class RunQueueWait {
 public:
  RunQueueWait() : fd_(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}
  ~RunQueueWait() {
    if (fd_ >= 0) ::close(fd_);
  }
  RunQueueWait(const RunQueueWait&) = delete;
  RunQueueWait& operator=(const RunQueueWait&) = delete;

  double us() const {
    char text[96];
    const ssize_t size = fd_ < 0 ? -1 : ::pread(fd_, text, sizeof text - 1, 0);
    if (size <= 0) return 0;
    text[size] = '\0';
    char* end = nullptr;
    std::strtoull(text, &end, 10);  // time on a CPU
    return static_cast<double>(std::strtoull(end, nullptr, 10)) / 1000.0;
  }

 private:
  int fd_;
};

// Wall time less the wait for a CPU: the host time a stretch of the program's own code took.
struct HostStopwatch {
  WallClock::time_point wall;
  double waited_us = 0;
};

struct ThreadClock {
  unsigned epoch = ~0u;
  double now_us = 0;
  HostStopwatch left_at;  // when the thread last left an API call
  int depth = 0;          // nested API calls (a callback calling the API)
  RunQueueWait run_queue_wait;
};
thread_local ThreadClock clock_of_thread;

HostStopwatch stopwatch_now(const ThreadClock& clock) { return {WallClock::now(), clock.run_queue_wait.us()}; }

double host_us_since(const ThreadClock& clock, const HostStopwatch& start) {
  const HostStopwatch now = stopwatch_now(clock);
  const double wall_us = std::chrono::duration<double, std::micro>(now.wall - start.wall).count();
  return std::max(0.0, wall_us - (now.waited_us - start.waited_us));
}

void publish(double time_us) {
  std::lock_guard lock(latest_mutex);
  latest_us = std::max(latest_us, time_us);
}

// Entering the runtime: the wall time since the thread left it counts.
void enter() {
  ThreadClock& clock = clock_of_thread;
  if (clock.depth++ > 0) return;
  if (clock.epoch != epoch.load()) {
    clock.epoch = epoch.load();
    std::lock_guard lock(latest_mutex);
    clock.now_us = latest_us;
  } else {
    clock.now_us += host_us_since(clock, clock.left_at);
  }
}

void leave() {
  ThreadClock& clock = clock_of_thread;
  if (--clock.depth > 0) return;
  clock.left_at = stopwatch_now(clock);
  publish(clock.now_us);
}

}  // namespace

double host_now_us() { return clock_of_thread.now_us; }

void host_wait_until(double time_us) {
  clock_of_thread.now_us = std::max(clock_of_thread.now_us, time_us);
  publish(clock_of_thread.now_us);
}

void restart_host_clocks() {
  {
    std::lock_guard lock(latest_mutex);
    latest_us = 0;
  }
  ++epoch;
  // The calling thread (inside aclInit) restarts now.
  clock_of_thread.epoch = epoch.load();
  clock_of_thread.now_us = 0;
}

ApiScope::ApiScope() { enter(); }
ApiScope::~ApiScope() { leave(); }

UserCodeScope::UserCodeScope() {
  ThreadClock& clock = clock_of_thread;
  clock.left_at = stopwatch_now(clock);
  publish(clock.now_us);
}

UserCodeScope::~UserCodeScope() {
  ThreadClock& clock = clock_of_thread;
  clock.now_us += host_us_since(clock, clock.left_at);
}

}  // namespace asc::acl
