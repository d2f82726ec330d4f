// Two host threads, each with its own stream, running the model asynchronously at once.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "acl_fixture.hpp"

TEST_CASE("two threads, two streams: each thread's results are its own") {
  acl_test::Session session;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(acl_test::om("affine").c_str(), &id) == ACL_SUCCESS);
  aclrtContext context = nullptr;
  REQUIRE(aclrtGetCurrentContext(&context) == ACL_SUCCESS);

  std::vector<int> failures(2, 0);
  auto worker = [&](int which) {
    int& failed = failures[static_cast<size_t>(which)];
    if (aclrtSetCurrentContext(context) != ACL_SUCCESS) ++failed;
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) ++failed;
    void* input = nullptr;
    void* output = nullptr;
    if (aclrtMalloc(&input, 32, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS) ++failed;
    if (aclrtMalloc(&output, 32, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS) ++failed;
    aclmdlDataset* inputs = aclmdlCreateDataset();
    aclmdlDataset* outputs = aclmdlCreateDataset();
    aclDataBuffer* in_buffer = aclCreateDataBuffer(input, 32);
    aclDataBuffer* out_buffer = aclCreateDataBuffer(output, 32);
    aclmdlAddDatasetBuffer(inputs, in_buffer);
    aclmdlAddDatasetBuffer(outputs, out_buffer);
    aclrtEvent done = nullptr;
    if (aclrtCreateEvent(&done) != ACL_SUCCESS) ++failed;
    for (int round = 0; round < 8; ++round) {
      std::vector<float> x(8), y(8, 0);
      for (int i = 0; i < 8; ++i) x[static_cast<size_t>(i)] = static_cast<float>(which * 100 + round * 10 + i);
      if (aclrtMemcpyAsync(input, 32, x.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE, stream) != ACL_SUCCESS) ++failed;
      if (aclmdlExecuteAsync(id, inputs, outputs, stream) != ACL_SUCCESS) ++failed;
      if (aclrtMemcpyAsync(y.data(), 32, output, 32, ACL_MEMCPY_DEVICE_TO_HOST, stream) != ACL_SUCCESS) ++failed;
      if (aclrtRecordEvent(done, stream) != ACL_SUCCESS) ++failed;
      if (aclrtSynchronizeEvent(done) != ACL_SUCCESS) ++failed;
      for (size_t i = 0; i < 8; ++i)
        if (y[i] != 2 * x[i] + 1) ++failed;
    }
    aclrtDestroyEvent(done);
    aclDestroyDataBuffer(in_buffer);
    aclDestroyDataBuffer(out_buffer);
    aclmdlDestroyDataset(inputs);
    aclmdlDestroyDataset(outputs);
    aclrtFree(input);
    aclrtFree(output);
    if (aclrtDestroyStream(stream) != ACL_SUCCESS) ++failed;
  };
  std::thread first(worker, 0), second(worker, 1);
  first.join();
  second.join();
  CHECK(failures[0] == 0);
  CHECK(failures[1] == 0);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}
