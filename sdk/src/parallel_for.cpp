#include "asc/sdk/parallel.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace asc {
namespace {

// How long a thread polls before it sleeps on a condition variable: a model's kernels come back
// to back, and waking a sleeping thread costs tens of microseconds each time (measured on the
// ResNet-50 run; ONNX Runtime's and OpenMP's pools spin for the same reason).
constexpr auto kSpin = std::chrono::microseconds(100);

// Polls done() until it holds or kSpin has passed; returns done()'s last value.
template <class Done>
bool spin_until(Done&& done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= deadline) return done();
  }
}

// Workers wait until a job is posted, claim items, and report back when none are left. One job
// at a time (busy_ guards it). Waiting threads spin briefly (spin_until) before they sleep.
//
// Each participant (the caller first, then the workers in order) owns an equal run of items and
// claims them in order; one that runs out takes the next items of the others' runs. So with the
// same item count and threads, thread p computes the same part of each job's output when the
// threads keep pace: a layer reads the rows its thread wrote in the layer before, from its own
// core's cache, rather than half of them from the other core's. (A single shared counter dealt
// the items alternately.)
class WorkerPool {
 public:
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  // False when the pool is running another job (the caller then runs the items itself).
  bool try_run(int threads, std::int64_t count, const std::function<void(std::int64_t)>& item) {
    std::unique_lock busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    const int helpers = static_cast<int>(std::min<std::int64_t>(threads, count)) - 1;
    {
      std::lock_guard lock(mutex_);
      while (static_cast<int>(workers_.size()) < helpers)
        workers_.emplace_back([this, index = static_cast<int>(workers_.size())] { work(index); });
      item_ = &item;
      if (runs_.size() < static_cast<std::size_t>(helpers) + 1) runs_ = std::vector<Run>(helpers + 1);
      for (int p = 0; p <= helpers; ++p) {
        runs_[p].next.store(count * p / (helpers + 1));
        runs_[p].end = count * (p + 1) / (helpers + 1);
      }
      participants_ = helpers + 1;
      helpers_ = helpers;
      running_ = helpers;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    claim_items(0);
    spin_until([&] { return running_.load(std::memory_order_acquire) == 0; });
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return running_ == 0; });
    item_ = nullptr;
    if (error_) std::rethrow_exception(error_);
    return true;
  }

 private:
  void work(int index) {
    std::uint64_t seen = 0;
    for (;;) {
      spin_until([&] { return stopping_.load() || generation_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && index < helpers_); });
        if (stopping_) return;
        seen = generation_;
      }
      claim_items(index + 1);
      {
        std::lock_guard lock(mutex_);
        --running_;
      }
      finished_.notify_one();
    }
  }

  // Participant `self`'s run, then each other run from the next participant on.
  void claim_items(int self) {
    for (int k = 0; k < participants_; ++k) {
      Run& run = runs_[static_cast<std::size_t>((self + k) % participants_)];
      for (std::int64_t i = run.next.fetch_add(1); i < run.end; i = run.next.fetch_add(1)) {
        try {
          (*item_)(i);
        } catch (...) {
          std::lock_guard lock(mutex_);
          if (!error_) error_ = std::current_exception();
        }
      }
    }
  }

  // A participant's items [first, end): `next` is the first not yet claimed. Own cache line.
  struct alignas(64) Run {
    std::atomic<std::int64_t> next{0};
    std::int64_t end = 0;
  };

  std::mutex busy_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::vector<std::thread> workers_;
  const std::function<void(std::int64_t)>* item_ = nullptr;
  std::vector<Run> runs_;  // participants_ of them in use
  int participants_ = 0;
  int helpers_ = 0;  // workers taking part in the current job (the first helpers_ of them)
  std::atomic<int> running_{0};  // of those, the ones not yet done
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
  std::exception_ptr error_;
};

WorkerPool& pool() {
  static WorkerPool instance;
  return instance;
}

}  // namespace

void parallel_for(int threads, std::int64_t count, const std::function<void(std::int64_t)>& item) {
  if (count <= 0) return;
  if (threads > 1 && count > 1 && pool().try_run(threads, count, item)) return;
  for (std::int64_t i = 0; i < count; ++i) item(i);
}

}  // namespace asc
