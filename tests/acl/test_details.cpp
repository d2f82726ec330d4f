// The remaining entry points: stream/event variants, tensor descriptions, sizes from memory,
// and failures of queued work reported by the next synchronize.
#include <doctest/doctest.h>

#include <pthread.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "acl_fixture.hpp"
#include "c_caller.h"

using acl_test::recent_message;

TEST_CASE("stream and event variants, cached memory, SoC name, after aclFinalize") {
  {
    acl_test::Session session;
    aclrtStream stream = nullptr;
    REQUIRE(aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_FAST_LAUNCH) == ACL_SUCCESS);
    aclrtEvent event = nullptr;
    REQUIRE(aclrtCreateEventWithFlag(&event, ACL_EVENT_TIME_LINE) == ACL_SUCCESS);
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK(aclrtRecordEvent(event, stream) == ACL_SUCCESS);
    CHECK(aclrtSynchronizeStreamWithTimeout(stream, 1000) == ACL_SUCCESS);
    CHECK(aclrtQueryEventStatus(event, &status) == ACL_SUCCESS);
    CHECK(status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK(aclrtResetEvent(event, stream) == ACL_SUCCESS);
    float ms = 0;
    CHECK(aclrtEventElapsedTime(&ms, event, event) == ACL_ERROR_INVALID_PARAM);  // not recorded since the reset
    CHECK(aclrtQueryEventStatus(event, nullptr) == ACL_ERROR_INVALID_PARAM);
    void* cached = nullptr;
    CHECK(aclrtMallocCached(&cached, 32, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    CHECK(aclrtFree(cached) == ACL_SUCCESS);
    CHECK(aclrtMalloc(&cached, 32, static_cast<aclrtMemMallocPolicy>(77)) == ACL_ERROR_INVALID_PARAM);
    CHECK(std::string(aclrtGetSocName()) == "Ascend310");  // no model loaded: the fallback (docs/acl.md)
    CHECK(aclrtDestroyEvent(event) == ACL_SUCCESS);
    CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  }
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream) == ACL_ERROR_UNINITIALIZE);
  CHECK(aclrtGetSocName() == nullptr);
}

TEST_CASE("tensor descriptions in a dataset; the 32-bit size; application log") {
  const int64_t dims[] = {2, 3, 4};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_ND);
  REQUIRE(desc != nullptr);
  CHECK(aclGetTensorDescType(desc) == ACL_FLOAT16);
  CHECK(aclGetTensorDescFormat(desc) == ACL_FORMAT_ND);
  CHECK(aclGetTensorDescNumDims(desc) == 3);
  CHECK(aclGetTensorDescElementCount(desc) == 24);
  CHECK(aclGetTensorDescSize(desc) == 48);
  int64_t dim = 0;
  CHECK(aclGetTensorDescDimV2(desc, 2, &dim) == ACL_SUCCESS);
  CHECK(dim == 4);
  CHECK(aclGetTensorDescDimV2(desc, 3, &dim) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND) == nullptr);
  CHECK(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND) == nullptr);
  // A C caller's numbers that name no type or format: refused, never stored as the enum.
  CHECK(c_caller_create_tensor_desc(1000, ACL_FORMAT_ND) == nullptr);
  CHECK(recent_message().find("dataType 1000") != std::string::npos);
  CHECK(c_caller_create_tensor_desc(ACL_FLOAT, -7) == nullptr);
  CHECK(recent_message().find("format -7") != std::string::npos);
  CHECK(c_caller_create_tensor_desc(5, ACL_FORMAT_ND) == nullptr);  // 5: a gap in aclDataType
  aclTensorDesc* strange = c_caller_create_tensor_desc(ACL_UINT1, ACL_FORMAT_NCL);
  REQUIRE(strange != nullptr);
  CHECK(aclGetTensorDescType(strange) == ACL_UINT1);
  CHECK(aclGetTensorDescFormat(strange) == ACL_FORMAT_NCL);
  aclDestroyTensorDesc(strange);

  aclmdlDataset* dataset = aclmdlCreateDataset();
  char bytes[48];
  aclDataBuffer* buffer = aclCreateDataBuffer(bytes, sizeof bytes);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the deprecated 32-bit size is tested on purpose
  CHECK(aclGetDataBufferSize(buffer) == 48u);
#pragma GCC diagnostic pop
  CHECK(aclmdlSetDatasetTensorDesc(dataset, desc, 0) == ACL_ERROR_INVALID_PARAM);  // no buffer 0 yet
  REQUIRE(aclmdlAddDatasetBuffer(dataset, buffer) == ACL_SUCCESS);
  CHECK(aclmdlGetDatasetTensorDesc(dataset, 0) == nullptr);
  CHECK(aclmdlSetDatasetTensorDesc(dataset, desc, 0) == ACL_SUCCESS);
  CHECK(aclmdlGetDatasetTensorDesc(dataset, 0) == desc);
  aclAppLog(ACL_INFO, "test", "test_details.cpp", 1, "an application log line: %d", 42);
  c_caller_app_log(1000, "a C caller's level outside aclLogLevel: logged as LOG");  // UBSan's check (run_suite.sh)
  aclmdlDestroyDataset(dataset);
  aclDestroyDataBuffer(buffer);
  aclDestroyTensorDesc(desc);
}

TEST_CASE("sizes and loads from memory with user memory; output formats and V2 dims") {
  acl_test::Session session;
  std::ifstream file(acl_test::om("affine"), std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  size_t work = 0, weight = 0;
  REQUIRE(aclmdlQuerySizeFromMem(bytes.data(), bytes.size(), &work, &weight) == ACL_SUCCESS);
  CHECK(work == 64);  // the input's and the output's 32 bytes
  CHECK(weight == bytes.size());
  void* work_memory = nullptr;
  void* weight_memory = nullptr;
  REQUIRE(aclrtMalloc(&work_memory, work, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  REQUIRE(aclrtMalloc(&weight_memory, weight, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromMemWithMem(bytes.data(), bytes.size(), &id, work_memory, work, weight_memory, weight) ==
          ACL_SUCCESS);
  aclmdlDesc* desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  CHECK(aclmdlGetOutputFormat(desc, 0) == ACL_FORMAT_ND);
  aclmdlIODims dims{};
  CHECK(aclmdlGetInputDimsV2(desc, 0, &dims) == ACL_SUCCESS);
  CHECK(dims.dimCount == 2);
  CHECK(aclmdlGetOutputIndexByName(desc, "x", nullptr) == ACL_ERROR_INVALID_PARAM);
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  aclrtFree(work_memory);
  aclrtFree(weight_memory);
}

namespace {

std::atomic<bool> release_callback{false};

void wait_for_release(void*) {
  while (!release_callback) std::this_thread::yield();
}

}  // namespace

TEST_CASE("queued work that finds its memory freed fails at the next synchronize, with a message") {
  acl_test::Session session;
  aclrtContext context = nullptr;
  REQUIRE(aclrtGetCurrentContext(&context) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  std::atomic<uint64_t> reporter_id{0};
  std::atomic<bool> stop{false};
  std::thread reporter([&] {
    aclrtSetCurrentContext(context);
    reporter_id = static_cast<uint64_t>(pthread_self());
    while (!stop) aclrtProcessReport(10);
  });
  while (reporter_id == 0) std::this_thread::yield();
  REQUIRE(aclrtSubscribeReport(reporter_id, stream) == ACL_SUCCESS);
  void* device = nullptr;
  REQUIRE(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  std::vector<char> host(64, 1);
  // The stream is held by a blocking callback until the memory is gone.
  release_callback = false;
  REQUIRE(aclrtLaunchCallback(wait_for_release, nullptr, ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS);
  REQUIRE(aclrtMemcpyAsync(device, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS);
  REQUIRE(aclrtFree(device) == ACL_SUCCESS);
  release_callback = true;
  CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("queued copy") != std::string::npos);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);  // reported once
  CHECK(aclrtUnSubscribeReport(reporter_id, stream) == ACL_SUCCESS);
  stop = true;
  reporter.join();
  CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
}
