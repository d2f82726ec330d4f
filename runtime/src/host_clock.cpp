#include "host_clock.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>

#include "api_guard.hpp"

namespace asc::acl {
namespace {

using WallClock = std::chrono::steady_clock;

std::mutex latest_mutex;
double latest_us = 0;          // the furthest any thread's clock has got
std::atomic<unsigned> epoch{0};  // bumped by aclInit

struct ThreadClock {
  unsigned epoch = ~0u;
  double now_us = 0;
  WallClock::time_point left_at;  // when the thread last left an API call
  int depth = 0;                  // nested API calls (a callback calling the API)
};
thread_local ThreadClock clock_of_thread;

void publish(double time_us) {
  std::lock_guard lock(latest_mutex);
  latest_us = std::max(latest_us, time_us);
}

// Entering the runtime: the wall time since the thread left it counts.
void enter() {
  ThreadClock& clock = clock_of_thread;
  if (clock.depth++ > 0) return;
  const auto now = WallClock::now();
  if (clock.epoch != epoch.load()) {
    clock.epoch = epoch.load();
    std::lock_guard lock(latest_mutex);
    clock.now_us = latest_us;
  } else {
    clock.now_us += std::chrono::duration<double, std::micro>(now - clock.left_at).count();
  }
}

void leave() {
  ThreadClock& clock = clock_of_thread;
  if (--clock.depth > 0) return;
  clock.left_at = WallClock::now();
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
  clock.left_at = WallClock::now();
  publish(clock.now_us);
}

UserCodeScope::~UserCodeScope() {
  ThreadClock& clock = clock_of_thread;
  clock.now_us += std::chrono::duration<double, std::micro>(WallClock::now() - clock.left_at).count();
}

}  // namespace asc::acl
