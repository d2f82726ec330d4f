// The process's kernel thread pool, shared by every plugin: operator kernels, fused operators
// and backends run their data-parallel loops on it, so threads from different plugins never
// compete for the cores a run was given. Since SDK 0.2.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace asc {

// Calls item(i) for every i in [0, count), on up to `threads` threads (the calling thread is one
// of them), and returns when all have finished. Each thread starts on an equal run of the items
// in order (the calling thread on the first), claimed one at a time; a thread that finishes its
// run takes the next items of the others', so uneven items balance. Consecutive calls with the
// same count and threads thus give each thread the same part of the work where the threads keep
// pace (since SDK 0.8.1: a kernel reads what the same core wrote in the kernel before; a shared
// counter used to deal the items alternately). The first exception an item throws is rethrown here (the remaining items still
// run). A call made while the pool is busy (another kernel running concurrently, or a nested
// call from an item) runs its items on the calling thread. Idle workers poll for about 100 µs
// before they sleep, so kernels that follow each other do not pay a thread wake-up each.
void parallel_for(int threads, std::int64_t count, const std::function<void(std::int64_t)>& item);

// The environment variable that sets how many threads a run uses when its caller does not say.
inline constexpr const char* kThreadsVariable = "ASC_NUM_THREADS";

// How many threads a run uses when nobody chose a number (since SDK 0.4): $ASC_NUM_THREADS when it
// is set and not empty, else the cores this process may run on (its CPU affinity mask, so
// `taskset` and container CPU sets are respected; at least 1). A value of ASC_NUM_THREADS that is
// not a positive integer is an EE5007 error naming the variable.
int default_threads();

// A thread count taken from a flag or a stage parameter (since SDK 0.4): `requested` when it is
// from 1 to 4096, default_threads() when it is 0 (the parameter's "not chosen" value); anything
// else is an EE5007 error naming `what` (e.g. "ais_bench: 'threads'").
int threads_or_default(std::int64_t requested, const std::string& what);

}  // namespace asc
