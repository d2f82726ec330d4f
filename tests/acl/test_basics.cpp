// aclInit/aclFinalize, error messages, versions, devices, contexts and data buffers.
#include <doctest/doctest.h>

#include <fstream>

#include "acl_fixture.hpp"
#include "c_caller.h"

using acl_test::recent_message;

TEST_CASE("calls before aclInit fail with ACL_ERROR_UNINITIALIZE and say why") {
  CHECK(aclrtSetDevice(0) == ACL_ERROR_UNINITIALIZE);
  CHECK(recent_message().find("aclInit") != std::string::npos);
  void* pointer = nullptr;
  CHECK(aclrtMalloc(&pointer, 16, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_ERROR_UNINITIALIZE);
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile("missing.om", &id) == ACL_ERROR_UNINITIALIZE);
  CHECK(aclFinalize() == ACL_ERROR_REPEAT_FINALIZE);
}

TEST_CASE("aclInit takes a JSON file or null, once") {
  const auto config = acl_test::work_dir() / "acl.json";
  std::ofstream(config) << "{}";
  REQUIRE(aclInit(config.c_str()) == ACL_SUCCESS);
  CHECK(aclInit(config.c_str()) == ACL_ERROR_REPEAT_INITIALIZE);
  CHECK(aclFinalize() == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_ERROR_REPEAT_FINALIZE);

  CHECK(aclInit((acl_test::work_dir() / "nowhere.json").c_str()) == ACL_ERROR_INVALID_FILE);
  CHECK(recent_message().find("nowhere.json") != std::string::npos);
  const auto broken = acl_test::work_dir() / "broken.json";
  std::ofstream(broken) << "{ not json";
  CHECK(aclInit(broken.c_str()) == ACL_ERROR_PARSE_FILE);
  REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_SUCCESS);
}

TEST_CASE("aclGetRecentErrMsg returns the last failure once, then null") {
  acl_test::Session session;
  aclGetRecentErrMsg();  // whatever an earlier test left
  CHECK(aclGetRecentErrMsg() == nullptr);
  CHECK(aclrtGetDeviceCount(nullptr) == ACL_ERROR_INVALID_PARAM);
  const char* message = aclGetRecentErrMsg();
  REQUIRE(message != nullptr);
  CHECK(std::string(message).find("count is null") != std::string::npos);
  CHECK(std::string(message).find("100000") != std::string::npos);
  CHECK(aclGetRecentErrMsg() == nullptr);
}

TEST_CASE("version, run mode, device count and device ids") {
  acl_test::Session session;
  int32_t major = -1, minor = -1, patch = -1;
  CHECK(aclrtGetVersion(&major, &minor, &patch) == ACL_SUCCESS);
  CHECK(major == ACL_MAJOR_VERSION);
  aclrtRunMode mode = ACL_DEVICE;
  CHECK(aclrtGetRunMode(&mode) == ACL_SUCCESS);
  CHECK(mode == ACL_HOST);
  uint32_t count = 0;
  CHECK(aclrtGetDeviceCount(&count) == ACL_SUCCESS);
  CHECK(count == 1);
  int32_t device = -1;
  CHECK(aclrtGetDevice(&device) == ACL_SUCCESS);
  CHECK(device == 0);
  CHECK(aclrtSetDevice(1) == ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK(aclrtSetDevice(-1) == ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK(aclrtResetDevice(3) == ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_CASE("contexts: create makes current, set/get, destroy, stale handles") {
  REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
  aclrtContext none = nullptr;
  CHECK(aclrtGetCurrentContext(&none) == ACL_ERROR_RT_CONTEXT_NULL);
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream) == ACL_ERROR_RT_CONTEXT_NULL);

  REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtContext default_context = nullptr;
  CHECK(aclrtGetCurrentContext(&default_context) == ACL_SUCCESS);
  CHECK(default_context != nullptr);
  aclrtContext created = nullptr;
  REQUIRE(aclrtCreateContext(&created, 0) == ACL_SUCCESS);
  aclrtContext current = nullptr;
  CHECK(aclrtGetCurrentContext(&current) == ACL_SUCCESS);
  CHECK(current == created);
  CHECK(aclrtSetCurrentContext(default_context) == ACL_SUCCESS);
  CHECK(aclrtGetCurrentContext(&current) == ACL_SUCCESS);
  CHECK(current == default_context);
  CHECK(aclrtCreateContext(&created, 2) == ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK(aclrtDestroyContext(created) == ACL_SUCCESS);
  CHECK(aclrtDestroyContext(created) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclrtSetCurrentContext(created) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclrtDestroyContext(default_context) == ACL_ERROR_INVALID_RESOURCE_HANDLE);  // goes with aclrtResetDevice
  CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
  CHECK(aclrtResetDevice(0) == ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK(aclrtGetCurrentContext(&current) == ACL_ERROR_RT_CONTEXT_NULL);
  CHECK(aclFinalize() == ACL_SUCCESS);
}

TEST_CASE("data buffers hold a pointer and a size; stale or null handles are errors") {
  float values[4] = {};
  aclDataBuffer* buffer = aclCreateDataBuffer(values, sizeof values);
  REQUIRE(buffer != nullptr);
  CHECK(aclGetDataBufferAddr(buffer) == values);
  CHECK(aclGetDataBufferSizeV2(buffer) == sizeof values);
  float other[2] = {};
  CHECK(aclUpdateDataBuffer(buffer, other, sizeof other) == ACL_SUCCESS);
  CHECK(aclGetDataBufferAddr(buffer) == other);
  CHECK(aclGetDataBufferSizeV2(buffer) == sizeof other);
  CHECK(aclDestroyDataBuffer(buffer) == ACL_SUCCESS);
  CHECK(aclDestroyDataBuffer(buffer) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclGetDataBufferAddr(buffer) == nullptr);
  CHECK(aclGetDataBufferSizeV2(nullptr) == 0);
  CHECK(aclCreateDataBuffer(nullptr, 8) == nullptr);
  aclDataBuffer* empty = aclCreateDataBuffer(nullptr, 0);
  CHECK(empty != nullptr);
  CHECK(aclDestroyDataBuffer(empty) == ACL_SUCCESS);
}

TEST_CASE("data type sizes and half conversions") {
  CHECK(aclDataTypeSize(ACL_FLOAT) == 4);
  CHECK(aclDataTypeSize(ACL_FLOAT16) == 2);
  CHECK(aclDataTypeSize(ACL_INT64) == 8);
  CHECK(aclDataTypeSize(ACL_UINT8) == 1);
  CHECK(aclDataTypeSize(ACL_DT_UNDEFINED) == 0);
  CHECK(c_caller_data_type_size(33) == 4);     // ACL_COMPLEX32: two halves
  CHECK(c_caller_data_type_size(1000) == 0);   // outside aclDataType's range (-64 to 63): unknown
  CHECK(aclFloatToFloat16(1.0f) == 0x3c00);  // IEEE half: sign 0, exponent 15, mantissa 0
  CHECK(aclFloatToFloat16(-2.0f) == 0xc000);
  CHECK(aclFloat16ToFloat(0x3800) == 0.5f);
}

TEST_CASE("datasets: buffers in order, index errors") {
  aclmdlDataset* dataset = aclmdlCreateDataset();
  REQUIRE(dataset != nullptr);
  int a = 0, b = 0;
  aclDataBuffer* first = aclCreateDataBuffer(&a, sizeof a);
  aclDataBuffer* second = aclCreateDataBuffer(&b, sizeof b);
  CHECK(aclmdlAddDatasetBuffer(dataset, first) == ACL_SUCCESS);
  CHECK(aclmdlAddDatasetBuffer(dataset, second) == ACL_SUCCESS);
  CHECK(aclmdlAddDatasetBuffer(dataset, nullptr) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlGetDatasetNumBuffers(dataset) == 2);
  CHECK(aclmdlGetDatasetBuffer(dataset, 1) == second);
  CHECK(aclmdlGetDatasetBuffer(dataset, 2) == nullptr);
  CHECK(aclmdlDestroyDataset(dataset) == ACL_SUCCESS);
  CHECK(aclmdlDestroyDataset(dataset) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclmdlGetDatasetNumBuffers(dataset) == 0);
  aclDestroyDataBuffer(first);
  aclDestroyDataBuffer(second);
}
