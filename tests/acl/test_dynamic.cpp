// Dynamic batch and image size: the extra ACL_DYNAMIC_TENSOR_NAME input, profiles chosen per call.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "acl_fixture.hpp"

using acl_test::recent_message;

namespace {

struct Buffers {
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  std::vector<void*> device;
  void* add(aclmdlDataset* dataset, size_t size) {
    void* pointer = nullptr;
    REQUIRE(aclrtMalloc(&pointer, size, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
    device.push_back(pointer);
    REQUIRE(aclmdlAddDatasetBuffer(dataset, aclCreateDataBuffer(pointer, size)) == ACL_SUCCESS);
    return pointer;
  }
  ~Buffers() {
    for (aclmdlDataset* dataset : {input, output}) {
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(dataset); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dataset, i));
      aclmdlDestroyDataset(dataset);
    }
    for (void* pointer : device) aclrtFree(pointer);
  }
};

std::vector<float> ramp(size_t count) {
  std::vector<float> values;
  for (size_t i = 0; i < count; ++i) values.push_back(static_cast<float>(i) - 3.0f);
  return values;
}

}  // namespace

TEST_CASE("dynamic batch: profiles, the dynamic tensor, a batch per execution") {
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("dyn_affine").c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc* desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  aclmdlBatch batch{};
  REQUIRE(aclmdlGetDynamicBatch(desc, &batch) == ACL_SUCCESS);
  REQUIRE(batch.batchCount == 3);
  CHECK(batch.batch[0] == 1);
  CHECK(batch.batch[1] == 2);
  CHECK(batch.batch[2] == 4);
  REQUIRE(aclmdlGetNumInputs(desc) == 2);
  size_t dynamic_index = 0;
  REQUIRE(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &dynamic_index) == ACL_SUCCESS);
  CHECK(dynamic_index == 1);
  aclmdlIODims dims{};
  REQUIRE(aclmdlGetInputDims(desc, 0, &dims) == ACL_SUCCESS);
  CHECK(dims.dims[0] == -1);
  CHECK(dims.dims[1] == 4);
  // Sized for the largest batch.
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 4 * 4 * sizeof(float));
  CHECK(aclmdlGetOutputSizeByIndex(desc, 0) == 4 * 4 * sizeof(float));

  Buffers buffers;
  void* input = buffers.add(buffers.input, aclmdlGetInputSizeByIndex(desc, 0));
  buffers.add(buffers.input, aclmdlGetInputSizeByIndex(desc, dynamic_index));
  void* output = buffers.add(buffers.output, aclmdlGetOutputSizeByIndex(desc, 0));
  const std::vector<float> x = ramp(16);
  REQUIRE(aclrtMemcpy(input, 64, x.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  // Without a batch chosen the dynamic tensor holds 0: no profile.
  CHECK(aclmdlExecute(id, buffers.input, buffers.output) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("aclmdlSetDynamicBatchSize") != std::string::npos);
  CHECK(aclmdlSetDynamicBatchSize(id, buffers.input, dynamic_index, 3) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("1; 2; 4") != std::string::npos);
  CHECK(aclmdlSetDynamicBatchSize(id, buffers.input, 0, 2) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlSetDynamicHWSize(id, buffers.input, dynamic_index, 2, 2) == ACL_ERROR_MODEL_NOT_DYNAMIC);

  for (const uint64_t n : {2u, 4u, 1u}) {
    CAPTURE(n);
    std::vector<float> cleared(16, -99.0f);
    REQUIRE(aclrtMemcpy(output, 64, cleared.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    REQUIRE(aclmdlSetDynamicBatchSize(id, buffers.input, dynamic_index, n) == ACL_SUCCESS);
    REQUIRE(aclmdlExecute(id, buffers.input, buffers.output) == ACL_SUCCESS);
    const std::vector<float> y = acl_test::host_floats(output, 16);
    for (size_t i = 0; i < 16; ++i) CHECK(y[i] == (i < 4 * n ? 2.0f * x[i] + 1.0f : -99.0f));
    REQUIRE(aclmdlGetCurOutputDims(desc, 0, &dims) == ACL_SUCCESS);
    CHECK(dims.dims[0] == static_cast<int64_t>(n));
  }
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}

TEST_CASE("dynamic image size: height and width per execution") {
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("hw_affine").c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc* desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  aclmdlHW hw{};
  REQUIRE(aclmdlGetDynamicHW(desc, 0, &hw) == ACL_SUCCESS);
  REQUIRE(hw.hwCount == 2);
  CHECK(hw.hw[0][0] == 2);
  CHECK(hw.hw[0][1] == 2);
  CHECK(hw.hw[1][0] == 4);
  CHECK(hw.hw[1][1] == 4);
  CHECK(aclmdlGetInputFormat(desc, 0) == ACL_FORMAT_NCHW);
  size_t dynamic_index = 0;
  REQUIRE(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &dynamic_index) == ACL_SUCCESS);
  Buffers buffers;
  void* input = buffers.add(buffers.input, aclmdlGetInputSizeByIndex(desc, 0));
  buffers.add(buffers.input, aclmdlGetInputSizeByIndex(desc, dynamic_index));
  void* output = buffers.add(buffers.output, aclmdlGetOutputSizeByIndex(desc, 0));
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 16 * sizeof(float));
  const std::vector<float> x = ramp(16);
  REQUIRE(aclrtMemcpy(input, 64, x.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  CHECK(aclmdlSetDynamicBatchSize(id, buffers.input, dynamic_index, 1) == ACL_ERROR_MODEL_NOT_DYNAMIC);
  CHECK(aclmdlSetDynamicHWSize(id, buffers.input, dynamic_index, 3, 3) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclmdlSetDynamicHWSize(id, buffers.input, dynamic_index, 2, 2) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(id, buffers.input, buffers.output) == ACL_SUCCESS);
  std::vector<float> y = acl_test::host_floats(output, 4);
  for (size_t i = 0; i < 4; ++i) CHECK(y[i] == 2.0f * x[i] + 1.0f);
  REQUIRE(aclmdlSetDynamicHWSize(id, buffers.input, dynamic_index, 4, 4) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(id, buffers.input, buffers.output) == ACL_SUCCESS);
  y = acl_test::host_floats(output, 16);
  for (size_t i = 0; i < 16; ++i) CHECK(y[i] == 2.0f * x[i] + 1.0f);
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}
