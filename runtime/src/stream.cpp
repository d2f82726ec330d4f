#include "stream.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace asc::acl {
namespace {

std::atomic<int> next_stream_id{0};

}  // namespace

Stream::Stream() : id_(next_stream_id++), worker_([this] { run(); }) {}

Stream::~Stream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void Stream::enqueue(Work work, double not_before_us) {
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(std::move(work), not_before_us);
  }
  changed_.notify_all();
}

double Stream::synchronize() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
  if (failure_) {
    AclFailure failure = std::move(*failure_);
    failure_.reset();
    throw failure;
  }
  return end_us_;
}

void Stream::wait_idle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

bool Stream::idle() {
  std::lock_guard lock(mutex_);
  return queue_.empty() && !busy_;
}

void Stream::run() {
  // The functional emulation runs here (and on the kernel pool threads this thread starts, which
  // inherit its priority). It yields the CPU to the program's own threads: their wall time
  // between API calls is simulated host time, and the emulation's must not leak into it.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;  // stopping, and nothing left
    auto [work, not_before_us] = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    const double ready_us = std::max(not_before_us, end_us_);
    lock.unlock();
    double end_us = ready_us;
    std::optional<AclFailure> failure;
    try {
      end_us = work(ready_us);
    } catch (...) {
      auto [code, message] = current_failure();
      failure.emplace(code, message);
    }
    lock.lock();
    end_us_ = std::max(end_us_, end_us);
    if (failure && !failure_) failure_ = std::move(failure);
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace asc::acl
