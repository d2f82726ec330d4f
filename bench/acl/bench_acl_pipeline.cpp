// The seed's async pipeline on libascendcl: N images through a classification model with a fixed
// host preprocessing step per image, run
//   sync:  preprocess, copy in, aclmdlExecute, copy out, one image after the other;
//   async: two streams, double-buffered: while image i's copy-in / execution / copy-out are queued
//          on one stream, the host preprocesses image i+1 for the other.
// Both report simulated throughput (images per simulated second, from events on the device
// timeline, host time between API calls included) and the async/sync ratio.
//
//   bench_acl_pipeline MODEL.om [--images N] [--preprocess-ms MS] [--rounds R]
//
// Host time is wall time, so other processes preempting the program between API calls add to
// it: each round runs sync then async, and the medians over R rounds (default 5) are reported.
// --preprocess-ms defaults to the model's own simulated execution time, measured first (the
// seed's case: preprocessing about as long as the device time). Preprocessing is a spin on the
// wall clock, so its duration is the same however loaded the machine is.
#include <acl/acl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void check(aclError result, const char* what) {
  if (result == ACL_SUCCESS) return;
  const char* message = aclGetRecentErrMsg();
  std::fprintf(stderr, "%s failed: %d %s\n", what, static_cast<int>(result), message ? message : "");
  std::exit(1);
}

void preprocess(std::vector<char>& image, double ms, int index) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(ms);
  std::memset(image.data(), index & 0x3f, image.size());  // the image's bytes (fp16 values near 0)
  while (std::chrono::steady_clock::now() < until) {
  }
}

struct Slot {  // one image in flight: its buffers, datasets and stream
  aclrtStream stream = nullptr;
  void* input = nullptr;
  void* output = nullptr;
  aclmdlDataset* inputs = nullptr;
  aclmdlDataset* outputs = nullptr;
  std::vector<char> host_input, host_output;
};

Slot make_slot(aclmdlDesc* desc) {
  Slot slot;
  const size_t in = aclmdlGetInputSizeByIndex(desc, 0), out = aclmdlGetOutputSizeByIndex(desc, 0);
  check(aclrtCreateStream(&slot.stream), "aclrtCreateStream");
  check(aclrtMalloc(&slot.input, in, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  check(aclrtMalloc(&slot.output, out, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  slot.inputs = aclmdlCreateDataset();
  slot.outputs = aclmdlCreateDataset();
  check(aclmdlAddDatasetBuffer(slot.inputs, aclCreateDataBuffer(slot.input, in)), "aclmdlAddDatasetBuffer");
  check(aclmdlAddDatasetBuffer(slot.outputs, aclCreateDataBuffer(slot.output, out)), "aclmdlAddDatasetBuffer");
  slot.host_input.resize(in);
  slot.host_output.resize(out);
  return slot;
}

void enqueue(uint32_t model, Slot& slot) {
  const size_t in = slot.host_input.size(), out = slot.host_output.size();
  check(aclrtMemcpyAsync(slot.input, in, slot.host_input.data(), in, ACL_MEMCPY_HOST_TO_DEVICE, slot.stream), "copy in");
  check(aclmdlExecuteAsync(model, slot.inputs, slot.outputs, slot.stream), "aclmdlExecuteAsync");
  check(aclrtMemcpyAsync(slot.host_output.data(), out, slot.output, out, ACL_MEMCPY_DEVICE_TO_HOST, slot.stream), "copy out");
}

// Simulated milliseconds from `start` to `end`, recorded on the default stream around the run.
float elapsed_ms(aclrtEvent start, aclrtEvent end) {
  check(aclrtSynchronizeEvent(end), "aclrtSynchronizeEvent");
  float ms = 0;
  check(aclrtEventElapsedTime(&ms, start, end), "aclrtEventElapsedTime");
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0) {
    std::printf("usage: %s MODEL.om [--images N] [--preprocess-ms MS]\n", argv[0]);
    return argc < 2 ? 1 : 0;
  }
  int images = 16;
  int rounds = 5;
  double preprocess_ms = -1;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--images") == 0) images = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--preprocess-ms") == 0) preprocess_ms = std::atof(argv[i + 1]);
    else if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[i + 1]));
  }
  check(aclInit(nullptr), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  uint32_t model = 0;
  check(aclmdlLoadFromFile(argv[1], &model), "aclmdlLoadFromFile");
  aclmdlDesc* desc = aclmdlCreateDesc();
  check(aclmdlGetDesc(desc, model), "aclmdlGetDesc");
  Slot slots[2] = {make_slot(desc), make_slot(desc)};
  aclrtEvent start = nullptr, end = nullptr, run_start = nullptr, run_end = nullptr;
  for (aclrtEvent* event : {&start, &end, &run_start, &run_end}) check(aclrtCreateEvent(event), "aclrtCreateEvent");

  // The device time of one image: copy in, execution, copy out, back to back.
  check(aclrtRecordEvent(run_start, slots[0].stream), "aclrtRecordEvent");
  enqueue(model, slots[0]);
  check(aclrtRecordEvent(run_end, slots[0].stream), "aclrtRecordEvent");
  const float device_ms = elapsed_ms(run_start, run_end);
  if (preprocess_ms < 0) preprocess_ms = device_ms;
  std::printf("device time per image: %.3f ms (copy in, execution, copy out); preprocessing: %.3f ms\n", device_ms,
              preprocess_ms);

  std::vector<float> sync_runs, async_runs, ratios;
  for (int round = 0; round < rounds; ++round) {
  // Synchronous: everything on the default stream, waiting for each image.
  check(aclrtRecordEvent(start, nullptr), "aclrtRecordEvent");
  for (int i = 0; i < images; ++i) {
    Slot& slot = slots[0];
    preprocess(slot.host_input, preprocess_ms, i);
    const size_t in = slot.host_input.size(), out = slot.host_output.size();
    check(aclrtMemcpy(slot.input, in, slot.host_input.data(), in, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    check(aclmdlExecute(model, slot.inputs, slot.outputs), "aclmdlExecute");
    check(aclrtMemcpy(slot.host_output.data(), out, slot.output, out, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
  }
  check(aclrtRecordEvent(end, nullptr), "aclrtRecordEvent");
  const float sync_ms = elapsed_ms(start, end);

  // Asynchronous, double-buffered on two streams.
  check(aclrtRecordEvent(start, nullptr), "aclrtRecordEvent");
  for (int i = 0; i < images; ++i) {
    Slot& slot = slots[i % 2];
    check(aclrtSynchronizeStream(slot.stream), "aclrtSynchronizeStream");  // its previous image is done
    preprocess(slot.host_input, preprocess_ms, i);
    enqueue(model, slot);
  }
  for (Slot& slot : slots) check(aclrtSynchronizeStream(slot.stream), "aclrtSynchronizeStream");
  check(aclrtRecordEvent(end, nullptr), "aclrtRecordEvent");
  const float async_ms = elapsed_ms(start, end);
  std::printf("round %d: sync %.3f ms, async %.3f ms, ratio %.2f\n", round + 1, sync_ms, async_ms, sync_ms / async_ms);
  sync_runs.push_back(sync_ms);
  async_runs.push_back(async_ms);
  ratios.push_back(sync_ms / async_ms);
  }
  const auto median = [](std::vector<float> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  };
  const float sync_ms = median(sync_runs), async_ms = median(async_runs);
  std::printf("%d images, median of %d rounds: sync %.3f ms (%.2f images/s), async 2 streams %.3f ms (%.2f images/s), "
              "ratio %.2f\n", images, rounds, sync_ms, images * 1e3 / sync_ms, async_ms, images * 1e3 / async_ms,
              median(ratios));
  aclmdlUnload(model);
  aclmdlDestroyDesc(desc);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
