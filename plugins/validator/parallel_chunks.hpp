// Splits [0, count) into one block-aligned chunk per worker thread and runs them in parallel.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include "block_kernels.hpp"

namespace asc::validator {

// Below this many elements per thread, starting a thread costs more than it saves.
inline constexpr std::int64_t kMinElementsPerThread = std::int64_t{1} << 18;

inline int worker_count(std::int64_t count) {
  const auto hardware = static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(std::clamp<std::int64_t>(count / kMinElementsPerThread, 1, hardware));
}

// Calls work(worker, begin, end) for `workers` contiguous chunks; rethrows the first exception.
template <class Work>
void run_chunks(std::int64_t count, int workers, Work&& work) {
  const auto block = static_cast<std::int64_t>(kBlockSize);
  const std::int64_t blocks = (count + block - 1) / block;
  auto chunk_begin = [&](int w) { return std::min(count, blocks * w / workers * block); };
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
  auto guarded = [&](int w) {
    try {
      work(w, chunk_begin(w), chunk_begin(w + 1));
    } catch (...) {
      errors[static_cast<std::size_t>(w)] = std::current_exception();
    }
  };
  std::vector<std::jthread> threads;
  for (int w = 1; w < workers; ++w) threads.emplace_back(guarded, w);
  guarded(0);
  threads.clear();  // joins
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
}

// Elements per chunk of run_shared_chunks: 256 blocks (2 MB of float64 pairs), small enough that
// the chunks spread evenly over the threads, large enough that claiming one costs nothing.
inline constexpr std::int64_t kSharedChunkElements = std::int64_t{1} << 16;
static_assert(kSharedChunkElements % static_cast<std::int64_t>(kBlockSize) == 0);

inline std::int64_t shared_chunk_count(std::int64_t count) {
  return (count + kSharedChunkElements - 1) / kSharedChunkElements;
}

// Calls work(worker, chunk, begin, end) for the chunks of kSharedChunkElements elements of
// [0, count), which `workers` threads claim in increasing order as they become free: a thread
// slowed down (a core shared with another process) takes fewer chunks instead of holding the
// others up. Each worker sees its chunks in increasing order. Rethrows the first exception.
template <class Work>
void run_shared_chunks(std::int64_t count, int workers, Work&& work) {
  const std::int64_t chunks = shared_chunk_count(count);
  std::atomic<std::int64_t> next{0};
  run_chunks(count, workers, [&](int w, std::int64_t, std::int64_t) {
    for (std::int64_t chunk = next++; chunk < chunks; chunk = next++) {
      const std::int64_t begin = chunk * kSharedChunkElements;
      work(w, chunk, begin, std::min(count, begin + kSharedChunkElements));
    }
  });
}

}  // namespace asc::validator
