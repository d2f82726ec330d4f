// Streams, events on the simulated timeline, callbacks, and two host threads with two streams.
#include <doctest/doctest.h>

#include <pthread.h>

#include <atomic>
#include <thread>
#include <vector>

#include "acl_fixture.hpp"

using acl_test::recent_message;

namespace {

// The fallback host link (docs/acl.md) when no model has described the device: 8 GB/s, so
// 256 MiB take 33.554 ms. Host time between API calls counts, so the checks below that compare
// with one copy's time hold while the test thread is not kept off the CPU between two calls for
// that long: a large copy keeps them far from scheduling noise.
constexpr size_t kCopyBytes = size_t{256} << 20;
constexpr double kCopyMs = kCopyBytes / 8e9 * 1e3;

}  // namespace

TEST_CASE("streams: async copies complete at synchronize; stale handles are errors") {
  acl_test::Session session;
  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  void* device = nullptr;
  REQUIRE(aclrtMalloc(&device, 16, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  const std::vector<float> values = {1, 2, 3, 4};
  std::vector<float> back(4, 0);
  CHECK(aclrtMemcpyAsync(device, 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS);
  CHECK(aclrtMemsetAsync(device, 16, 0, 4, stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(back.data(), 16, device, 16, ACL_MEMCPY_DEVICE_TO_HOST, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(back == std::vector<float>{0, 2, 3, 4});
  CHECK(aclrtMemcpyAsync(back.data(), 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
  CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  CHECK(aclrtDestroyStream(stream) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclrtDestroyStream(nullptr) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtCreateStream(nullptr) == ACL_ERROR_INVALID_PARAM);
  // The null stream is the context's default stream.
  CHECK(aclrtMemcpyAsync(device, 16, values.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, nullptr) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(nullptr) == ACL_SUCCESS);
  CHECK(acl_test::host_floats(device, 4) == values);
  aclrtFree(device);
}

TEST_CASE("events: elapsed time is the simulated copy time over the host link") {
  acl_test::Session session;
  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  void* device = nullptr;
  REQUIRE(aclrtMalloc(&device, kCopyBytes, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  std::vector<char> host(kCopyBytes, 1);
  aclrtEvent start = nullptr, middle = nullptr, end = nullptr;
  REQUIRE(aclrtCreateEvent(&start) == ACL_SUCCESS);
  REQUIRE(aclrtCreateEvent(&middle) == ACL_SUCCESS);
  REQUIRE(aclrtCreateEvent(&end) == ACL_SUCCESS);
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end) == ACL_ERROR_INVALID_PARAM);  // never recorded
  aclrtEventStatus status = ACL_EVENT_STATUS_NOT_READY;
  CHECK(aclrtQueryEvent(start, &status) == ACL_SUCCESS);
  CHECK(status == ACL_EVENT_STATUS_COMPLETE);

  CHECK(aclrtRecordEvent(start, stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(device, kCopyBytes, host.data(), kCopyBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(middle, stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(device, kCopyBytes, host.data(), kCopyBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(end, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeEvent(end) == ACL_SUCCESS);
  CHECK(aclrtQueryEvent(end, &status) == ACL_SUCCESS);
  CHECK(status == ACL_EVENT_STATUS_COMPLETE);
  // The first copy starts when the host enqueued it, a little after `start`; the second is
  // queued behind the first, so it starts exactly when the first ends.
  CHECK(aclrtEventElapsedTime(&ms, start, middle) == ACL_SUCCESS);
  CHECK(ms >= doctest::Approx(kCopyMs).epsilon(1e-5));
  CHECK(aclrtEventElapsedTime(&ms, middle, end) == ACL_SUCCESS);
  CHECK(ms == doctest::Approx(kCopyMs).epsilon(1e-5));

  CHECK(aclrtDestroyEvent(start) == ACL_SUCCESS);
  CHECK(aclrtDestroyEvent(start) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclrtRecordEvent(start, stream) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclrtEventElapsedTime(nullptr, middle, end) == ACL_ERROR_INVALID_PARAM);
  aclrtDestroyEvent(middle);
  aclrtDestroyEvent(end);
  aclrtDestroyStream(stream);
  aclrtFree(device);
}

TEST_CASE("the copy engines run both directions at once; one direction queues") {
  acl_test::Session session;
  aclrtStream up = nullptr, down = nullptr;
  REQUIRE(aclrtCreateStream(&up) == ACL_SUCCESS);
  REQUIRE(aclrtCreateStream(&down) == ACL_SUCCESS);
  void* device_a = nullptr;
  void* device_b = nullptr;
  REQUIRE(aclrtMalloc(&device_a, kCopyBytes, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  REQUIRE(aclrtMalloc(&device_b, kCopyBytes, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  std::vector<char> host_a(kCopyBytes, 1), host_b(kCopyBytes, 2);
  aclrtEvent gate = nullptr, up_done = nullptr, down_done = nullptr;
  REQUIRE(aclrtCreateEvent(&gate) == ACL_SUCCESS);
  REQUIRE(aclrtCreateEvent(&up_done) == ACL_SUCCESS);
  REQUIRE(aclrtCreateEvent(&down_done) == ACL_SUCCESS);
  // Both streams start from the same point: the gate recorded on `up`, awaited by `down`.
  REQUIRE(aclrtRecordEvent(gate, up) == ACL_SUCCESS);
  REQUIRE(aclrtStreamWaitEvent(down, gate) == ACL_SUCCESS);
  REQUIRE(aclrtSynchronizeEvent(gate) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(device_a, kCopyBytes, host_a.data(), kCopyBytes, ACL_MEMCPY_HOST_TO_DEVICE, up) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(host_b.data(), kCopyBytes, device_b, kCopyBytes, ACL_MEMCPY_DEVICE_TO_HOST, down) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(up_done, up) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(down_done, down) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
  float up_ms = 0, down_ms = 0;
  CHECK(aclrtEventElapsedTime(&up_ms, gate, up_done) == ACL_SUCCESS);
  CHECK(aclrtEventElapsedTime(&down_ms, gate, down_done) == ACL_SUCCESS);
  // Each took one copy's time after the host enqueued it (full duplex): neither waited for the other.
  CHECK(up_ms < 2 * kCopyMs);
  CHECK(down_ms < 2 * kCopyMs);

  // Two copies the same direction on two streams: the second waits for the engine.
  REQUIRE(aclrtRecordEvent(gate, up) == ACL_SUCCESS);
  REQUIRE(aclrtStreamWaitEvent(down, gate) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(device_a, kCopyBytes, host_a.data(), kCopyBytes, ACL_MEMCPY_HOST_TO_DEVICE, up) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(device_b, kCopyBytes, host_b.data(), kCopyBytes, ACL_MEMCPY_HOST_TO_DEVICE, down) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(up_done, up) == ACL_SUCCESS);
  CHECK(aclrtRecordEvent(down_done, down) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
  CHECK(aclrtEventElapsedTime(&up_ms, gate, up_done) == ACL_SUCCESS);
  CHECK(aclrtEventElapsedTime(&down_ms, gate, down_done) == ACL_SUCCESS);
  CHECK(std::max(up_ms, down_ms) >= doctest::Approx(2 * kCopyMs).epsilon(1e-5));
  for (aclrtEvent event : {gate, up_done, down_done}) aclrtDestroyEvent(event);
  aclrtDestroyStream(up);
  aclrtDestroyStream(down);
  aclrtFree(device_a);
  aclrtFree(device_b);
}

namespace {

struct CallbackLog {
  std::atomic<int> calls{0};
  std::atomic<uint64_t> thread{0};
};

void count_call(void* user_data) {
  auto* log = static_cast<CallbackLog*>(user_data);
  log->thread = static_cast<uint64_t>(pthread_self());
  ++log->calls;
}

}  // namespace

TEST_CASE("callbacks run on the subscribed thread inside aclrtProcessReport") {
  acl_test::Session session;
  aclrtContext context = nullptr;
  REQUIRE(aclrtGetCurrentContext(&context) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  CallbackLog log;
  CHECK(aclrtLaunchCallback(count_call, &log, ACL_CALLBACK_BLOCK, stream) == ACL_ERROR_STREAM_NOT_SUBSCRIBE);
  CHECK(aclrtProcessReport(10) == ACL_ERROR_THREAD_NOT_SUBSCRIBE);

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> reporter_id{0};
  std::thread reporter([&] {
    aclrtSetCurrentContext(context);
    reporter_id = static_cast<uint64_t>(pthread_self());
    while (!stop) {
      const aclError result = aclrtProcessReport(20);
      if (result != ACL_SUCCESS && result != ACL_ERROR_WAIT_CALLBACK_TIMEOUT && result != ACL_ERROR_THREAD_NOT_SUBSCRIBE)
        break;
    }
  });
  while (reporter_id == 0) std::this_thread::yield();
  REQUIRE(aclrtSubscribeReport(reporter_id, stream) == ACL_SUCCESS);
  CHECK(aclrtSubscribeReport(reporter_id, stream) == ACL_ERROR_REPEAT_SUBSCRIBE);
  CHECK(aclrtLaunchCallback(count_call, &log, ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS);
  CHECK(aclrtLaunchCallback(count_call, &log, ACL_CALLBACK_NO_BLOCK, stream) == ACL_SUCCESS);
  CHECK(aclrtLaunchCallback(nullptr, &log, ACL_CALLBACK_BLOCK, stream) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  // The blocking callback has run by now; the non-blocking one may still be on its way.
  while (log.calls < 2) std::this_thread::yield();
  CHECK(log.thread == reporter_id);
  CHECK(aclrtUnSubscribeReport(reporter_id, stream) == ACL_SUCCESS);
  CHECK(aclrtUnSubscribeReport(reporter_id, stream) == ACL_ERROR_STREAM_NOT_SUBSCRIBE);
  stop = true;
  reporter.join();
  CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
}
