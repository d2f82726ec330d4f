// Device memory: tracked allocations, copies checked against their kind and sizes, memsets.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "acl_fixture.hpp"
#include "c_caller.h"

using acl_test::recent_message;

TEST_CASE("device memory round-trips through host copies and device copies") {
  acl_test::Session session;
  const std::vector<float> values = {1.5f, -2, 3, 4.25f};
  void* device = acl_test::device_floats(values);
  void* copy = nullptr;
  REQUIRE(aclrtMalloc(&copy, 16, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(copy, 16, device, 16, ACL_MEMCPY_DEVICE_TO_DEVICE) == ACL_SUCCESS);
  CHECK(acl_test::host_floats(copy, 4) == values);
  // ACL_MEMCPY_DEFAULT finds the direction from the pointers.
  std::vector<float> back(4);
  CHECK(aclrtMemcpy(back.data(), 16, copy, 16, ACL_MEMCPY_DEFAULT) == ACL_SUCCESS);
  CHECK(back == values);
  CHECK(aclrtMemset(copy, 16, 0, 8) == ACL_SUCCESS);
  CHECK(acl_test::host_floats(copy, 4) == std::vector<float>{0, 0, 3, 4.25f});
  CHECK(aclrtFree(device) == ACL_SUCCESS);
  CHECK(aclrtFree(copy) == ACL_SUCCESS);
}

TEST_CASE("a host pointer where device memory is needed is an error, not a silent copy") {
  acl_test::Session session;
  std::vector<float> host(4, 1.0f), other(4, 0.0f);
  CHECK(aclrtMemcpy(other.data(), 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("not device memory") != std::string::npos);
  CHECK(other == std::vector<float>(4, 0.0f));
  CHECK(aclrtMemcpy(other.data(), 16, host.data(), 16, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM);
  void* device = acl_test::device_floats({1, 2, 3, 4});
  // Device memory given as the host side.
  CHECK(aclrtMemcpy(host.data(), 16, device, 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("is device memory") != std::string::npos);
  CHECK(aclrtMemset(host.data(), 16, 0, 16) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtFree(device) == ACL_SUCCESS);
}

TEST_CASE("sizes past an allocation, count over destMax, null pointers") {
  acl_test::Session session;
  void* device = nullptr;
  REQUIRE(aclrtMalloc(&device, 16, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  std::vector<float> host(8, 1.0f);
  CHECK(aclrtMemcpy(device, 32, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("run past the end") != std::string::npos);
  CHECK(aclrtMemcpy(static_cast<char*>(device) + 8, 16, host.data(), 12, ACL_MEMCPY_HOST_TO_DEVICE) ==
        ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtMemcpy(static_cast<char*>(device) + 8, 8, host.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  CHECK(aclrtMemcpy(device, 8, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("destMax") != std::string::npos);
  CHECK(aclrtMemcpy(nullptr, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
  // A C caller may pass any int as the kind; the check must not read it as the enum first (UBSan's
  // -fsanitize=enum in the sanitised build, tests/fuzz/run_suite.sh).
  CHECK(aclrtMemcpy(device, 16, host.data(), 16, static_cast<aclrtMemcpyKind>(9)) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("kind 9 is not an aclrtMemcpyKind") != std::string::npos);
  // 0x10006 lies outside aclrtMemMallocPolicy's range (0 to 0x1fff), and its policy byte 6 is none.
  void* cached = nullptr;
  CHECK(c_caller_malloc_cached(&cached, 16, 0x10006) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("policy 65542 is not an aclrtMemMallocPolicy") != std::string::npos);
  CHECK(cached == nullptr);
  CHECK(aclrtMemset(device, 8, 0, 16) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_ERROR_INVALID_PARAM);
  void* zero = nullptr;
  CHECK(aclrtMalloc(&zero, 0, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclrtFree(device) == ACL_SUCCESS);
}

TEST_CASE("double frees, freed pointers and mixed allocators are errors") {
  acl_test::Session session;
  void* device = nullptr;
  REQUIRE(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  void* host = nullptr;
  REQUIRE(aclrtMallocHost(&host, 64) == ACL_SUCCESS);
  CHECK(aclrtFree(host) == ACL_ERROR_RT_MEMORY_FREE);
  CHECK(aclrtFreeHost(device) == ACL_ERROR_RT_MEMORY_FREE);
  CHECK(aclrtFree(static_cast<char*>(device) + 4) == ACL_ERROR_RT_MEMORY_FREE);
  CHECK(aclrtFree(device) == ACL_SUCCESS);
  CHECK(aclrtFree(device) == ACL_ERROR_RT_MEMORY_FREE);
  CHECK(recent_message().find("not the start of a live aclrtMalloc allocation") != std::string::npos);
  std::vector<float> values(16, 2.0f);
  CHECK(aclrtMemcpy(device, 64, values.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM);
  // Pinned host memory is host memory for copies.
  CHECK(aclrtMemcpy(host, 64, values.data(), 64, ACL_MEMCPY_HOST_TO_HOST) == ACL_SUCCESS);
  CHECK(static_cast<float*>(host)[15] == 2.0f);
  CHECK(aclrtFreeHost(host) == ACL_SUCCESS);
  CHECK(aclrtFreeHost(host) == ACL_ERROR_RT_MEMORY_FREE);
  CHECK(aclrtFree(nullptr) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtGetMemInfo counts allocations against the device's memory") {
  acl_test::Session session;
  size_t free_before = 0, total = 0;
  REQUIRE(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total) == ACL_SUCCESS);
  CHECK(total > 0);
  CHECK(free_before == total);
  void* device = nullptr;
  REQUIRE(aclrtMalloc(&device, 1 << 20, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  size_t free_after = 0;
  REQUIRE(aclrtGetMemInfo(ACL_DDR_MEM, &free_after, &total) == ACL_SUCCESS);
  CHECK(free_before - free_after == (1 << 20));
  CHECK(aclrtGetMemInfo(ACL_DDR_MEM, nullptr, &total) == ACL_ERROR_INVALID_PARAM);
  // More than the device has.
  void* huge = nullptr;
  CHECK(aclrtMalloc(&huge, total, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_ERROR_RT_MEMORY_ALLOCATION);
  CHECK(aclrtFree(device) == ACL_SUCCESS);
  REQUIRE(aclrtGetMemInfo(ACL_DDR_MEM, &free_after, &total) == ACL_SUCCESS);
  CHECK(free_after == free_before);
}
