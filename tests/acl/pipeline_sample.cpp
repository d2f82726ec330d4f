// An inference program the way the seed's async pipeline is written (C++11, ACL calls only):
// N images, prepared first, through a model on two streams: image i's copy in, execution and copy out are queued
// on stream i % 2 (each image with its own buffers) while the host goes on to image i + 1; then
// both streams are synchronized. The images are executed in order: image i + 1's execution
// waits for an event recorded after image i's (aclrtStreamWaitEvent), while its copy in, queued
// before that wait, may run during image i's execution. Each image is filled with the value i / 8 (fp32 or fp16 input,
// as the model's input data type says).
//
//   pipeline_sample MODEL.om IMAGES [--aclprof DIR]
//
// With --aclprof the run is profiled with the acl_prof.h calls into DIR (task time and
// PipeUtilization, like the seed's acl.prof.start); under msprof, msprof's collection applies.
// Prints "image <i>: output[0] <value>" per image; exits 1 on any failure.
#include <acl/acl.h>
#include <acl/acl_prof.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void check(aclError result, const char* what) {
  if (result == ACL_SUCCESS) return;
  const char* message = aclGetRecentErrMsg();
  std::fprintf(stderr, "%s failed: error %d %s\n", what, static_cast<int>(result), message ? message : "");
  std::exit(1);
}

struct Slot {
  aclrtStream stream;
  void* input;
  void* output;
  aclmdlDataset* inputs;
  aclmdlDataset* outputs;
  std::vector<float> host_input, host_output;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 5) {
    std::fprintf(stderr, "usage: %s MODEL.om IMAGES [--aclprof DIR]\n", argv[0]);
    return 1;
  }
  const int images = std::atoi(argv[2]);
  const char* prof_dir = argc == 5 && std::strcmp(argv[3], "--aclprof") == 0 ? argv[4] : NULL;
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  uint32_t model = 0;
  check(aclmdlLoadFromFile(argv[1], &model), "aclmdlLoadFromFile");
  aclmdlDesc* desc = aclmdlCreateDesc();
  check(aclmdlGetDesc(desc, model), "aclmdlGetDesc");
  const size_t in_size = aclmdlGetInputSizeByIndex(desc, 0), out_size = aclmdlGetOutputSizeByIndex(desc, 0);
  const bool fp16_input = aclmdlGetInputDataType(desc, 0) == ACL_FLOAT16;

  aclrtStream streams[2];
  for (int s = 0; s < 2; ++s) check(aclrtCreateStream(&streams[s]), "aclrtCreateStream");
  std::vector<Slot> slots(images);
  std::vector<aclrtEvent> executed(images);  // recorded after image i's execution
  for (int i = 0; i < images; ++i) check(aclrtCreateEvent(&executed[i]), "aclrtCreateEvent");
  for (int i = 0; i < images; ++i) {
    Slot& slot = slots[i];
    slot.stream = streams[i % 2];
    check(aclrtMalloc(&slot.input, in_size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMalloc(&slot.output, out_size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    slot.inputs = aclmdlCreateDataset();
    slot.outputs = aclmdlCreateDataset();
    check(aclmdlAddDatasetBuffer(slot.inputs, aclCreateDataBuffer(slot.input, in_size)), "aclmdlAddDatasetBuffer");
    check(aclmdlAddDatasetBuffer(slot.outputs, aclCreateDataBuffer(slot.output, out_size)), "aclmdlAddDatasetBuffer");
    slot.host_input.resize((in_size + 3) / 4);
    slot.host_output.resize(out_size / 4);
    // Filled before the images are queued: the simulated host clock counts the program's own time
    // between API calls, and filling an image in the loop took longer than an image's kernels in
    // the ASan build (tests/fuzz/run_suite.sh), so the AI core waited for the host there.
    const float value = static_cast<float>(i) / 8;
    if (fp16_input) {
      const aclFloat16 half = aclFloatToFloat16(value);
      uint16_t* words = reinterpret_cast<uint16_t*>(&slot.host_input[0]);
      for (size_t k = 0; k < in_size / 2; ++k) words[k] = half;
    } else {
      for (size_t k = 0; k < in_size / 4; ++k) slot.host_input[k] = value;
    }
  }

  uint32_t devices[1] = {0};
  aclprofConfig* config = NULL;
  if (prof_dir != NULL) {
    check(aclprofInit(prof_dir, std::strlen(prof_dir)), "aclprofInit");
    config = aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, NULL,
                                 ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS);
    if (config == NULL) check(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig");
    check(aclprofStart(config), "aclprofStart");
  }

  for (int i = 0; i < images; ++i) {
    Slot& slot = slots[i];
    check(aclrtMemcpyAsync(slot.input, in_size, &slot.host_input[0], in_size, ACL_MEMCPY_HOST_TO_DEVICE, slot.stream),
          "aclrtMemcpyAsync(in)");
    if (i > 0) check(aclrtStreamWaitEvent(slot.stream, executed[i - 1]), "aclrtStreamWaitEvent");
    check(aclmdlExecuteAsync(model, slot.inputs, slot.outputs, slot.stream), "aclmdlExecuteAsync");
    check(aclrtRecordEvent(executed[i], slot.stream), "aclrtRecordEvent");
    check(aclrtMemcpyAsync(&slot.host_output[0], out_size, slot.output, out_size, ACL_MEMCPY_DEVICE_TO_HOST,
                           slot.stream),
          "aclrtMemcpyAsync(out)");
  }
  for (int s = 0; s < 2; ++s) check(aclrtSynchronizeStream(streams[s]), "aclrtSynchronizeStream");
  for (int i = 0; i < images; ++i) std::printf("image %d: output[0] %.6f\n", i, slots[i].host_output[0]);

  if (prof_dir != NULL) {
    check(aclprofStop(config), "aclprofStop");
    check(aclprofDestroyConfig(config), "aclprofDestroyConfig");
    check(aclprofFinalize(), "aclprofFinalize");
  }
  for (int i = 0; i < images; ++i) {
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(slots[i].inputs, 0));
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(slots[i].outputs, 0));
    aclmdlDestroyDataset(slots[i].inputs);
    aclmdlDestroyDataset(slots[i].outputs);
    aclrtFree(slots[i].input);
    aclrtFree(slots[i].output);
  }
  for (int i = 0; i < images; ++i) check(aclrtDestroyEvent(executed[i]), "aclrtDestroyEvent");
  for (int s = 0; s < 2; ++s) check(aclrtDestroyStream(streams[s]), "aclrtDestroyStream");
  aclmdlDestroyDesc(desc);
  check(aclmdlUnload(model), "aclmdlUnload");
  check(aclrtResetDevice(0), "aclrtResetDevice");
  check(aclFinalize(), "aclFinalize");
  return 0;
}
