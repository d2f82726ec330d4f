// default_threads / threads_or_default (asc/sdk/parallel.hpp): the thread count a run uses when
// the user did not choose one.
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

#include "asc/sdk/error.hpp"
#include "asc/sdk/parallel.hpp"

namespace asc {
namespace {

// The CPUs this process may run on; hardware_concurrency() counts every CPU of the machine, even
// those `taskset` or a container's cpuset keep it off.
int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace

int default_threads() {
  const char* value = std::getenv(kThreadsVariable);
  if (value == nullptr || *value == '\0') return usable_cpus();
  const std::string text = value;
  std::size_t used = 0;
  long long count = 0;
  try {
    count = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || count < 1 || count > 4096)
    throw Error(ErrorCode::ConfigBadValue, std::string("environment variable ") + kThreadsVariable + "='" + text +
                                               "' is not a thread count (a whole number from 1 to 4096)");
  return static_cast<int>(count);
}

int threads_or_default(std::int64_t requested, const std::string& what) {
  if (requested > 0 && requested <= 4096) return static_cast<int>(requested);
  if (requested == 0) return default_threads();
  throw Error(ErrorCode::ConfigBadValue, what + " must be a thread count from 1 to 4096, or 0 for the default ($" +
                                             kThreadsVariable + ", else every core), not " +
                                             std::to_string(requested));
}

}  // namespace asc
