// asc::parallel_for: every item once, on the pool's threads, exceptions and nesting; and the
// default thread count (default_threads, threads_or_default).
#include <doctest/doctest.h>

#include <sched.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/parallel.hpp>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

TEST_CASE("parallel_for runs every item exactly once, whatever the thread count") {
  // Counts that divide between the threads' runs and counts that do not, fewer items than
  // threads, and the thread count going up and down between jobs.
  for (int threads : {1, 2, 4, 3, 2})
    for (std::int64_t count : {1000, 1001, 7, 1}) {
      CAPTURE(threads);
      CAPTURE(count);
      std::vector<std::atomic<int>> runs(static_cast<std::size_t>(count));
      asc::parallel_for(threads, count, [&](std::int64_t i) { ++runs[static_cast<std::size_t>(i)]; });
      for (const auto& ran : runs) CHECK(ran.load() == 1);
    }
  int calls = 0;
  asc::parallel_for(2, 0, [&](std::int64_t) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("parallel_for uses more than the calling thread when given more") {
  std::mutex mutex;
  std::set<std::thread::id> seen;
  // Items that wait for a second thread to arrive: with one thread the loop would never end, so
  // the test finishes only when the pool really shares the items.
  std::atomic<int> arrived{0};
  asc::parallel_for(2, 2, [&](std::int64_t) {
    ++arrived;
    while (arrived.load() < 2) std::this_thread::yield();
    std::lock_guard lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  CHECK(seen.size() == 2);
}

TEST_CASE("parallel_for: a thread that runs out of its own items takes the others'") {
  // Each thread starts on its own run of items (the caller on the first half). Item 0 waits for
  // all the others: whichever thread holds it, the rest of its run can only be done by the other
  // thread taking them over. (Bounded, so a pool that does not would fail rather than hang.)
  constexpr std::int64_t kCount = 10;
  std::atomic<int> done{0};
  bool others_done = false;
  asc::parallel_for(2, kCount, [&](std::int64_t i) {
    if (i != 0) {
      ++done;
      return;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (done.load() < kCount - 1 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    others_done = done.load() == kCount - 1;
  });
  CHECK(others_done);
}

TEST_CASE("parallel_for rethrows an item's exception after the other items ran") {
  std::atomic<int> ran{0};
  CHECK_THROWS_WITH_AS(asc::parallel_for(2, 50,
                                         [&](std::int64_t i) {
                                           ++ran;
                                           if (i == 7) throw std::runtime_error("item 7 failed");
                                         }),
                       "item 7 failed", std::runtime_error);
  CHECK(ran.load() == 50);
}

TEST_CASE("a nested parallel_for runs its items on the calling thread") {
  std::atomic<int> inner{0};
  asc::parallel_for(2, 4, [&](std::int64_t) {
    const std::thread::id caller = std::this_thread::get_id();
    asc::parallel_for(2, 10, [&](std::int64_t) {
      CHECK(std::this_thread::get_id() == caller);
      ++inner;
    });
  });
  CHECK(inner.load() == 40);
}

namespace {

// Sets (or with nullptr unsets) ASC_NUM_THREADS for one scope, restoring the old value after.
class ThreadsVariable {
 public:
  explicit ThreadsVariable(const char* value) {
    if (const char* old = std::getenv("ASC_NUM_THREADS")) old_ = old;
    if (value != nullptr) setenv("ASC_NUM_THREADS", value, 1);
    else unsetenv("ASC_NUM_THREADS");
  }
  ~ThreadsVariable() {
    if (old_) setenv("ASC_NUM_THREADS", old_->c_str(), 1);
    else unsetenv("ASC_NUM_THREADS");
  }

 private:
  std::optional<std::string> old_;
};

int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
  return CPU_COUNT(&set);
}

}  // namespace

TEST_CASE("default_threads: ASC_NUM_THREADS, else the CPUs of the affinity mask") {
  {
    ThreadsVariable unset(nullptr);
    CHECK(asc::default_threads() == affinity_cpus());
  }
  {
    ThreadsVariable empty("");
    CHECK(asc::default_threads() == affinity_cpus());
  }
  ThreadsVariable three("3");
  CHECK(asc::default_threads() == 3);
}

TEST_CASE("threads_or_default: a chosen count wins, 0 means the default, bad values are EE5007") {
  ThreadsVariable three("3");
  CHECK(asc::threads_or_default(2, "stage: 'threads'") == 2);
  CHECK(asc::threads_or_default(0, "stage: 'threads'") == 3);
  for (std::int64_t bad : {std::int64_t{-1}, std::int64_t{5000}}) {
    try {
      asc::threads_or_default(bad, "stage: 'threads'");
      FAIL("no error for " << bad);
    } catch (const asc::Error& error) {
      CHECK(error.code() == asc::ErrorCode::ConfigBadValue);
      CHECK(std::string(error.what()).find("stage: 'threads'") != std::string::npos);
    }
  }
  for (const char* bad : {"abc", "0", "-1", "4x", "99999"}) {
    CAPTURE(bad);
    ThreadsVariable variable(bad);
    try {
      asc::default_threads();
      FAIL("no error");
    } catch (const asc::Error& error) {
      CHECK(error.code() == asc::ErrorCode::ConfigBadValue);
      CHECK(std::string(error.what()).find("ASC_NUM_THREADS") != std::string::npos);
    }
  }
}
