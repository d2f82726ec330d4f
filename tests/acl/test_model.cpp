// Models: load (file, memory, user memory), sizes, descriptions, datasets, execution.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl_fixture.hpp"

using acl_test::recent_message;

namespace {

// y = 2x + 1 (the test models), computed here in float64.
std::vector<float> affine(const std::vector<float>& x) {
  std::vector<float> y;
  for (const float value : x) y.push_back(static_cast<float>(2.0 * value + 1.0));
  return y;
}

struct Io {
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  std::vector<void*> device;

  void add(aclmdlDataset* dataset, void* pointer, size_t size) {
    REQUIRE(aclmdlAddDatasetBuffer(dataset, aclCreateDataBuffer(pointer, size)) == ACL_SUCCESS);
  }
  void* add_device(aclmdlDataset* dataset, size_t size) {
    void* pointer = nullptr;
    REQUIRE(aclrtMalloc(&pointer, size, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
    device.push_back(pointer);
    add(dataset, pointer, size);
    return pointer;
  }
  ~Io() {
    for (aclmdlDataset* dataset : {input, output}) {
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(dataset); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dataset, i));
      aclmdlDestroyDataset(dataset);
    }
    for (void* pointer : device) aclrtFree(pointer);
  }
};

}  // namespace

TEST_CASE("load from file: description of a static float32 model") {
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("affine").c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetNumInputs(desc) == 0);  // not filled yet
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  CHECK(aclmdlGetNumInputs(desc) == 1);
  CHECK(aclmdlGetNumOutputs(desc) == 1);
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 2 * 4 * sizeof(float));
  CHECK(aclmdlGetOutputSizeByIndex(desc, 0) == 2 * 4 * sizeof(float));
  CHECK(std::string(aclmdlGetInputNameByIndex(desc, 0)) == "x");
  CHECK(std::string(aclmdlGetOutputNameByIndex(desc, 0)) == "y");
  CHECK(aclmdlGetInputDataType(desc, 0) == ACL_FLOAT);
  CHECK(aclmdlGetOutputDataType(desc, 0) == ACL_FLOAT);
  CHECK(aclmdlGetInputFormat(desc, 0) == ACL_FORMAT_ND);
  aclmdlIODims dims{};
  REQUIRE(aclmdlGetInputDims(desc, 0, &dims) == ACL_SUCCESS);
  CHECK(std::string(dims.name) == "x");
  CHECK(dims.dimCount == 2);
  CHECK(dims.dims[0] == 2);
  CHECK(dims.dims[1] == 4);
  REQUIRE(aclmdlGetOutputDims(desc, 0, &dims) == ACL_SUCCESS);
  CHECK(dims.dimCount == 2);
  REQUIRE(aclmdlGetCurOutputDims(desc, 0, &dims) == ACL_SUCCESS);
  CHECK(dims.dims[1] == 4);
  size_t index = 9;
  CHECK(aclmdlGetInputIndexByName(desc, "x", &index) == ACL_SUCCESS);
  CHECK(index == 0);
  CHECK(aclmdlGetOutputIndexByName(desc, "y", &index) == ACL_SUCCESS);
  CHECK(aclmdlGetInputIndexByName(desc, "nope", &index) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("inputs: x") != std::string::npos);
  CHECK(aclmdlGetInputDims(desc, 1, &dims) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlGetInputSizeByIndex(desc, 5) == 0);
  CHECK(aclmdlGetInputDataType(desc, 5) == ACL_DT_UNDEFINED);
  aclmdlBatch batch{};
  CHECK(aclmdlGetDynamicBatch(desc, &batch) == ACL_SUCCESS);
  CHECK(batch.batchCount == 0);
  CHECK(aclmdlDestroyDesc(desc) == ACL_SUCCESS);
  CHECK(aclmdlDestroyDesc(desc) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  CHECK(aclmdlUnload(id) == ACL_ERROR_INVALID_MODEL_ID);
  aclmdlDesc* late = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(late, id) == ACL_ERROR_INVALID_MODEL_ID);
  aclmdlDestroyDesc(late);
}

TEST_CASE("load errors: missing file, not a model, null arguments") {
  acl_test::Session session;
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile((acl_test::work_dir() / "missing.om").c_str(), &id) == ACL_ERROR_INVALID_FILE);
  CHECK(recent_message().find("missing.om") != std::string::npos);
  const auto text = acl_test::work_dir() / "text.om";
  std::ofstream(text) << "this is not a model";
  CHECK(aclmdlLoadFromFile(text.c_str(), &id) == ACL_ERROR_DESERIALIZE_MODEL);
  CHECK(aclmdlLoadFromFile(nullptr, &id) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlLoadFromMem(nullptr, 10, &id) == ACL_ERROR_INVALID_PARAM);
  size_t work = 0, weight = 0;
  CHECK(aclmdlQuerySize(text.c_str(), &work, &weight) == ACL_ERROR_DESERIALIZE_MODEL);
}

TEST_CASE("execute: y = 2x + 1 through device memory, synchronously and on a stream") {
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("affine").c_str(), &id) == ACL_SUCCESS);
  const std::vector<float> x = {0, 1, -1, 2.5f, 3, -4, 100, 0.25f};
  Io io;
  void* input = io.add_device(io.input, x.size() * sizeof(float));
  void* output = io.add_device(io.output, x.size() * sizeof(float));
  REQUIRE(aclrtMemcpy(input, 32, x.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(id, io.input, io.output) == ACL_SUCCESS);
  CHECK(acl_test::host_floats(output, x.size()) == affine(x));

  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  const std::vector<float> x2 = {5, 6, 7, 8, -5, -6, -7, -8};
  std::vector<float> y2(8, 0);
  CHECK(aclrtMemcpyAsync(input, 32, x2.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS);
  CHECK(aclmdlExecuteAsync(id, io.input, io.output, stream) == ACL_SUCCESS);
  CHECK(aclrtMemcpyAsync(y2.data(), 32, output, 32, ACL_MEMCPY_DEVICE_TO_HOST, stream) == ACL_SUCCESS);
  CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(y2 == affine(x2));
  CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  CHECK(aclmdlExecute(id, io.input, io.output) == ACL_ERROR_INVALID_MODEL_ID);
}

TEST_CASE("execute errors: dataset counts, host pointers, short buffers") {
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("affine").c_str(), &id) == ACL_SUCCESS);
  Io io;
  CHECK(aclmdlExecute(id, io.input, io.output) == ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  std::vector<float> host(8, 1.0f);
  io.add(io.input, host.data(), 32);
  CHECK(aclmdlExecute(id, io.input, io.output) == ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  void* output = io.add_device(io.output, 16);  // half the output
  CHECK(aclmdlExecute(id, io.input, io.output) == ACL_ERROR_INVALID_PARAM);
  CHECK(recent_message().find("not device memory") != std::string::npos);
  void* input = nullptr;
  REQUIRE(aclrtMalloc(&input, 32, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  io.device.push_back(input);
  REQUIRE(aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.input, 0), input, 32) == ACL_SUCCESS);
  CHECK(aclmdlExecute(id, io.input, io.output) == ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  CHECK(recent_message().find("16 bytes") != std::string::npos);
  (void)output;
  CHECK(aclmdlExecute(id, nullptr, io.output) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclmdlExecute(id + 100, io.input, io.output) == ACL_ERROR_INVALID_MODEL_ID);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}

TEST_CASE("query size, load with user memory, load from memory") {
  acl_test::Session session;
  const std::string path = acl_test::om("affine").string();
  size_t work = 0, weight = 0;
  REQUIRE(aclmdlQuerySize(path.c_str(), &work, &weight) == ACL_SUCCESS);
  CHECK(work >= 64);  // at least the input and the output
  CHECK(weight > 0);
  void* work_memory = nullptr;
  void* weight_memory = nullptr;
  REQUIRE(aclrtMalloc(&work_memory, work, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  REQUIRE(aclrtMalloc(&weight_memory, weight, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFileWithMem(path.c_str(), &id, work_memory, work - 1, weight_memory, weight) == ACL_ERROR_INVALID_PARAM);
  std::vector<char> host_work(work);
  CHECK(aclmdlLoadFromFileWithMem(path.c_str(), &id, host_work.data(), work, weight_memory, weight) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclmdlLoadFromFileWithMem(path.c_str(), &id, work_memory, work, weight_memory, weight) == ACL_SUCCESS);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);

  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  uint32_t from_memory = 0;
  REQUIRE(aclmdlLoadFromMem(bytes.data(), bytes.size(), &from_memory) == ACL_SUCCESS);
  CHECK(from_memory != id);  // ids are not reused
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
  Io io;
  void* input = io.add_device(io.input, 32);
  void* output = io.add_device(io.output, 32);
  REQUIRE(aclrtMemcpy(input, 32, x.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(from_memory, io.input, io.output) == ACL_SUCCESS);
  CHECK(acl_test::host_floats(output, 8) == affine(x));
  CHECK(aclmdlUnload(from_memory) == ACL_SUCCESS);
  CHECK(aclmdlLoadFromMem(bytes.data(), 10, &from_memory) != ACL_SUCCESS);
  aclrtFree(work_memory);
  aclrtFree(weight_memory);
}

TEST_CASE("atc --input_fp16_nodes --output_type=FP32: fp16 in, float32 out") {
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("affine_fp16").c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc* desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  CHECK(aclmdlGetInputDataType(desc, 0) == ACL_FLOAT16);
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 8 * 2);
  CHECK(aclmdlGetOutputDataType(desc, 0) == ACL_FLOAT);
  CHECK(aclmdlGetOutputSizeByIndex(desc, 0) == 8 * 4);
  const std::vector<float> x = {0, 1, -1, 2.5f, 3, -4, 100, 0.25f};
  std::vector<aclFloat16> halves;
  for (const float value : x) halves.push_back(aclFloatToFloat16(value));
  Io io;
  void* input = io.add_device(io.input, 16);
  void* output = io.add_device(io.output, 32);
  REQUIRE(aclrtMemcpy(input, 16, halves.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(id, io.input, io.output) == ACL_SUCCESS);
  CHECK(acl_test::host_floats(output, 8) == affine(x));
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}

TEST_CASE("ASC_ACL_TIMING_ONLY=1: the execution succeeds and leaves the output buffers as they were") {
  // (test_profiling.cpp: its kernels take the same simulated time as a full execution's.)
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("affine").c_str(), &id) == ACL_SUCCESS);
  const std::vector<float> x = {0, 1, -1, 2.5f, 3, -4, 100, 0.25f};
  const std::vector<float> sentinel(8, -42.0f);
  Io io;
  void* input = io.add_device(io.input, x.size() * sizeof(float));
  void* output = io.add_device(io.output, x.size() * sizeof(float));
  REQUIRE(aclrtMemcpy(input, 32, x.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  REQUIRE(aclrtMemcpy(output, 32, sentinel.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  setenv("ASC_ACL_TIMING_ONLY", "1", 1);
  const aclError status = aclmdlExecute(id, io.input, io.output);
  unsetenv("ASC_ACL_TIMING_ONLY");
  CHECK(status == ACL_SUCCESS);
  CHECK(acl_test::host_floats(output, x.size()) == sentinel);
  REQUIRE(aclmdlExecute(id, io.input, io.output) == ACL_SUCCESS);  // and computes again without it
  CHECK(acl_test::host_floats(output, x.size()) == affine(x));
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}
