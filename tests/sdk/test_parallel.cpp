// asc::parallel_for: every item once, on the pool's threads, exceptions and nesting.
#include <doctest/doctest.h>

#include <asc/sdk/parallel.hpp>
#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

TEST_CASE("parallel_for runs every item exactly once, whatever the thread count") {
  for (int threads : {1, 2, 4}) {
    CAPTURE(threads);
    std::vector<std::atomic<int>> runs(1000);
    asc::parallel_for(threads, 1000, [&](std::int64_t i) { ++runs[static_cast<std::size_t>(i)]; });
    for (const auto& count : runs) CHECK(count.load() == 1);
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
