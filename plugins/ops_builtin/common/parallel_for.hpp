// Kernel-level parallelism: runs work items on a pool of worker threads that lives as long as
// the plugin, so kernels do not pay for starting threads on every call.
#pragma once

#include <cstdint>
#include <functional>

namespace asc::ops {

// Calls item(i) for every i in [0, count), on up to `threads` threads (the calling thread is one
// of them), and returns when all have finished. Items are handed out one at a time, so uneven
// items balance. The first exception an item throws is rethrown here (the remaining items still
// run). A call made while the pool is busy (another kernel running concurrently, or a nested
// call from an item) runs its items on the calling thread.
void parallel_for(int threads, std::int64_t count, const std::function<void(std::int64_t)>& item);

}  // namespace asc::ops
