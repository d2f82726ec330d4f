// Host callbacks (aclrtLaunchCallback): when a stream reaches one, it goes to the queue of the
// thread subscribed to that stream (aclrtSubscribeReport) and runs inside that thread's
// aclrtProcessReport. A blocking callback holds the stream until it has run; the stream then
// resumes at the simulated time the callback finished on the reporting thread.
#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "device.hpp"
#include "host_clock.hpp"

namespace asc::acl {
namespace {

struct Completion {
  std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
  double end_us = 0;
};

struct Report {
  aclrtCallback fn = nullptr;
  void* user_data = nullptr;
  double ready_us = 0;  // when the stream reached it
  std::shared_ptr<Completion> completion;  // always set; the stream waits on it when blocking
};

struct ReportQueue {
  std::mutex mutex;
  std::condition_variable arrived;
  std::deque<Report> reports;
};

std::mutex subscriptions_mutex;
std::map<const Stream*, std::uint64_t> thread_of_stream;
std::map<std::uint64_t, std::shared_ptr<ReportQueue>> queue_of_thread;

std::uint64_t this_thread_id() { return static_cast<std::uint64_t>(pthread_self()); }

}  // namespace

// aclFinalize: no subscriptions survive.
void clear_subscriptions() {
  std::lock_guard lock(subscriptions_mutex);
  thread_of_stream.clear();
  queue_of_thread.clear();
}

}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api_call(__func__, [&] {
    std::shared_ptr<Stream> subscribed = stream_of(stream);
    std::lock_guard lock(subscriptions_mutex);
    if (thread_of_stream.count(subscribed.get()) != 0)
      fail(ACL_ERROR_REPEAT_SUBSCRIBE, "the stream is already subscribed to a thread (aclrtUnSubscribeReport first)");
    thread_of_stream[subscribed.get()] = threadId;
    auto& queue = queue_of_thread[threadId];
    if (!queue) queue = std::make_shared<ReportQueue>();
  });
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return api_call(__func__, [&] {
    std::shared_ptr<Stream> subscribed = stream_of(stream);
    std::lock_guard lock(subscriptions_mutex);
    const auto found = thread_of_stream.find(subscribed.get());
    if (found == thread_of_stream.end() || found->second != threadId)
      fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE, "the stream is not subscribed to thread " + std::to_string(threadId));
    thread_of_stream.erase(found);
    bool still_used = false;
    for (const auto& [other, thread] : thread_of_stream) still_used = still_used || thread == threadId;
    if (!still_used) queue_of_thread.erase(threadId);
  });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
  return api_call(__func__, [&] {
    if (fn == nullptr) fail(ACL_ERROR_INVALID_PARAM, "fn is null");
    const long long block_type = c_enum_value(blockType);
    if (block_type != ACL_CALLBACK_NO_BLOCK && block_type != ACL_CALLBACK_BLOCK)
      fail(ACL_ERROR_INVALID_PARAM, "blockType " + std::to_string(block_type) +
                                        " is neither ACL_CALLBACK_NO_BLOCK nor ACL_CALLBACK_BLOCK");
    std::shared_ptr<Stream> target = stream_of(stream);
    std::shared_ptr<ReportQueue> queue;
    {
      std::lock_guard lock(subscriptions_mutex);
      const auto thread = thread_of_stream.find(target.get());
      if (thread == thread_of_stream.end())
        fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
             "no thread is subscribed to the stream: call aclrtSubscribeReport(threadId, stream) first");
      queue = queue_of_thread.at(thread->second);
    }
    const bool blocking = blockType == ACL_CALLBACK_BLOCK;
    target->enqueue(
        [queue, fn, userData, blocking](double ready_us) {
          auto completion = std::make_shared<Completion>();
          {
            std::lock_guard lock(queue->mutex);
            queue->reports.push_back({fn, userData, ready_us, completion});
          }
          queue->arrived.notify_all();
          if (!blocking) return ready_us;
          std::unique_lock lock(completion->mutex);
          completion->done_changed.wait(lock, [&] { return completion->done; });
          return std::max(ready_us, completion->end_us);
        },
        host_now_us());
  });
}

aclError aclrtProcessReport(int32_t timeout) {
  return api_call(__func__, [&] {
    if (timeout < -1) fail(ACL_ERROR_INVALID_PARAM, "timeout " + std::to_string(timeout) + " ms: give -1 (no limit) or more");
    std::shared_ptr<ReportQueue> queue;
    {
      std::lock_guard lock(subscriptions_mutex);
      const auto found = queue_of_thread.find(this_thread_id());
      if (found == queue_of_thread.end())
        fail(ACL_ERROR_THREAD_NOT_SUBSCRIBE, "the calling thread is subscribed to no stream (aclrtSubscribeReport)");
      queue = found->second;
    }
    std::deque<Report> reports;
    {
      std::unique_lock lock(queue->mutex);
      const auto arrived = [&] { return !queue->reports.empty(); };
      if (timeout == -1) queue->arrived.wait(lock, arrived);
      else if (!queue->arrived.wait_for(lock, std::chrono::milliseconds(timeout), arrived))
        fail(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, "no callback arrived within " + std::to_string(timeout) + " ms");
      reports.swap(queue->reports);
    }
    for (Report& report : reports) {
      host_wait_until(report.ready_us);  // the thread waited for the report to arrive
      {
        UserCodeScope user_code;  // the callback's own time is host time
        report.fn(report.user_data);
      }
      {
        std::lock_guard lock(report.completion->mutex);
        report.completion->done = true;
        report.completion->end_us = host_now_us();
      }
      report.completion->done_changed.notify_all();
    }
  });
}

}  // extern "C"
