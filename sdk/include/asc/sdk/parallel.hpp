// The process's kernel thread pool, shared by every plugin: operator kernels, fused operators
// and backends run their data-parallel loops on it, so threads from different plugins never
// compete for the cores a run was given. Since SDK 0.2.
#pragma once

#include <cstdint>
#include <functional>

namespace asc {

// Calls item(i) for every i in [0, count), on up to `threads` threads (the calling thread is one
// of them), and returns when all have finished. Items are handed out one at a time, so uneven
// items balance. The first exception an item throws is rethrown here (the remaining items still
// run). A call made while the pool is busy (another kernel running concurrently, or a nested
// call from an item) runs its items on the calling thread. Idle workers poll for about 100 µs
// before they sleep, so kernels that follow each other do not pay a thread wake-up each.
void parallel_for(int threads, std::int64_t count, const std::function<void(std::int64_t)>& item);

}  // namespace asc
