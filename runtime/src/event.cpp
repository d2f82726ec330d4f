// Events: points on a stream's simulated timeline.
//
// aclrtRecordEvent queues a marker; when the stream reaches it, the event completes at that
// simulated time. Waiting on an event (aclrtStreamWaitEvent) delays a stream's next work until
// the event's time; aclrtEventElapsedTime reads the difference in simulated milliseconds.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "device.hpp"
#include "host_clock.hpp"

namespace asc::acl {
namespace {

class Event {
 public:
  // A new recording: its generation.
  std::uint64_t record() {
    std::lock_guard lock(mutex_);
    return ++recorded_;
  }
  void complete(std::uint64_t generation, double time_us) {
    {
      std::lock_guard lock(mutex_);
      if (generation < completed_ || generation > recorded_) return;  // superseded, or reset since
      completed_ = generation;
      time_us_ = time_us;
    }
    changed_.notify_all();
  }
  // Waits until `generation` (or a later recording) has completed; returns the event's time.
  double wait(std::uint64_t generation) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return completed_ >= generation || recorded_ < generation; });
    return time_us_;
  }
  std::uint64_t recorded() {
    std::lock_guard lock(mutex_);
    return recorded_;
  }
  bool complete() {
    std::lock_guard lock(mutex_);
    return completed_ >= recorded_;
  }
  // The time of a recorded, completed event, or ACL_ERROR_INVALID_PARAM naming `which`.
  double time_of(const char* which) {
    std::lock_guard lock(mutex_);
    if (recorded_ == 0) fail(ACL_ERROR_INVALID_PARAM, std::string(which) + " event was never recorded");
    if (completed_ < recorded_)
      fail(ACL_ERROR_INVALID_PARAM, std::string(which) + " event has not completed yet (aclrtSynchronizeEvent first)");
    return time_us_;
  }
  void reset() {
    {
      std::lock_guard lock(mutex_);
      recorded_ = completed_ = 0;  // not recorded again until the next aclrtRecordEvent
      time_us_ = 0;
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t recorded_ = 0, completed_ = 0;
  double time_us_ = 0;
};

HandleTable<Event>& events() {
  static HandleTable<Event> table;
  return table;
}

std::shared_ptr<Event> event_of(const void* handle, const char* which = "event") {
  if (handle == nullptr) fail(ACL_ERROR_INVALID_PARAM, std::string(which) + " is null");
  std::shared_ptr<Event> event = events().find(handle);
  if (event == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, std::string(which) + " is not a live event");
  return event;
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  return api_call(__func__, [&] {
    if (event == nullptr) fail(ACL_ERROR_INVALID_PARAM, "event is null");
    (void)current_context();
    *event = events().add(std::make_shared<Event>());
  });
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t /*flag*/) { return aclrtCreateEvent(event); }

aclError aclrtDestroyEvent(aclrtEvent event) {
  return api_call(__func__, [&] {
    if (event == nullptr) fail(ACL_ERROR_INVALID_PARAM, "event is null");
    if (events().remove(event) == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "event is not a live event");
  });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return api_call(__func__, [&] {
    std::shared_ptr<Event> recorded = event_of(event);
    std::shared_ptr<Stream> target = stream_of(stream);
    const std::uint64_t generation = recorded->record();
    target->enqueue(
        [recorded, generation](double ready_us) {
          recorded->complete(generation, ready_us);
          return ready_us;
        },
        host_now_us());
  });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  return api_call(__func__, [&] {
    std::shared_ptr<Event> reset = event_of(event);
    (void)stream_of(stream);
    reset->reset();
  });
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  return api_call(__func__, [&] {
    std::shared_ptr<Event> queried = event_of(event);
    if (status == nullptr) fail(ACL_ERROR_INVALID_PARAM, "status is null");
    *status = queried->complete() ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  return api_call(__func__, [&] {
    std::shared_ptr<Event> queried = event_of(event);
    if (status == nullptr) fail(ACL_ERROR_INVALID_PARAM, "status is null");
    *status = queried->complete() ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return api_call(__func__, [&] {
    std::shared_ptr<Event> awaited = event_of(event);
    const std::uint64_t generation = awaited->recorded();
    if (generation == 0) return;  // never recorded: nothing to wait for
    host_wait_until(awaited->wait(generation));
  });
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return api_call(__func__, [&] {
    std::shared_ptr<Event> awaited = event_of(event);
    std::shared_ptr<Stream> waiting = stream_of(stream);
    const std::uint64_t generation = awaited->recorded();
    if (generation == 0) return;
    waiting->enqueue([awaited, generation](double ready_us) { return std::max(ready_us, awaited->wait(generation)); },
                     host_now_us());
  });
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  return api_call(__func__, [&] {
    if (ms == nullptr) fail(ACL_ERROR_INVALID_PARAM, "ms is null");
    const double start_us = event_of(startEvent, "startEvent")->time_of("start");
    const double end_us = event_of(endEvent, "endEvent")->time_of("end");
    *ms = static_cast<float>((end_us - start_us) / 1000.0);
  });
}

}  // extern "C"
