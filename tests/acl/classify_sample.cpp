// An inference program written against the ACL C API the way Ascend's ResNet-50 classification
// sample is (the same calls in the same order; this project's own code, C++11): initialise,
// device, context, stream, query the model's memory and load it into that memory, describe it,
// one device input buffer and device output buffers, and per image: copy it in, execute, copy
// the output back and print the top 5 classes.
//
//   classify_sample MODEL.om IMAGE.bin [IMAGE.bin ...]    (ACL config: acl.json beside the binary, if any)
//
// Prints "image <file>: top <k>: index[<class>] value[<score>]" lines and writes each image's
// output scores to <file>.output<i>.bin (as the sample's DumpModelOutputResult does); exits 1 on
// any failure.
#include <acl/acl.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace {

bool ok(aclError result, const char* what) {
  if (result == ACL_SUCCESS) return true;
  const char* message = aclGetRecentErrMsg();
  std::fprintf(stderr, "%s failed: error %d%s%s\n", what, static_cast<int>(result), message ? ": " : "", message ? message : "");
  return false;
}

class Classifier {
 public:
  ~Classifier() { release(); }

  bool init(const char* model_path) {
    if (!ok(aclInit(nullptr), "aclInit")) return false;
    initialized_ = true;
    if (!ok(aclrtSetDevice(0), "aclrtSetDevice")) return false;
    device_set_ = true;
    if (!ok(aclrtCreateContext(&context_, 0), "aclrtCreateContext")) return false;
    if (!ok(aclrtCreateStream(&stream_), "aclrtCreateStream")) return false;
    aclrtRunMode mode;
    if (!ok(aclrtGetRunMode(&mode), "aclrtGetRunMode")) return false;
    on_host_ = mode == ACL_HOST;

    aclGetRecentErrMsg();
    if (!ok(aclmdlQuerySize(model_path, &work_size_, &weight_size_), "aclmdlQuerySize")) return false;
    if (!ok(aclrtMalloc(&work_, work_size_, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(work)")) return false;
    if (!ok(aclrtMalloc(&weight_, weight_size_, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(weight)")) return false;
    if (!ok(aclmdlLoadFromFileWithMem(model_path, &model_id_, work_, work_size_, weight_, weight_size_),
            "aclmdlLoadFromFileWithMem"))
      return false;
    loaded_ = true;
    desc_ = aclmdlCreateDesc();
    if (desc_ == nullptr || !ok(aclmdlGetDesc(desc_, model_id_), "aclmdlGetDesc")) return false;

    input_size_ = aclmdlGetInputSizeByIndex(desc_, 0);
    if (!ok(aclrtMalloc(&input_, input_size_, ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc(input)")) return false;
    input_set_ = aclmdlCreateDataset();
    aclDataBuffer* input_buffer = aclCreateDataBuffer(input_, input_size_);
    if (input_set_ == nullptr || input_buffer == nullptr) return false;
    if (!ok(aclmdlAddDatasetBuffer(input_set_, input_buffer), "aclmdlAddDatasetBuffer(input)")) return false;

    output_set_ = aclmdlCreateDataset();
    if (output_set_ == nullptr) return false;
    for (size_t i = 0; i < aclmdlGetNumOutputs(desc_); ++i) {
      const size_t size = aclmdlGetOutputSizeByIndex(desc_, i);
      void* output = nullptr;
      if (!ok(aclrtMalloc(&output, size, ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc(output)")) return false;
      aclDataBuffer* buffer = aclCreateDataBuffer(output, size);
      if (buffer == nullptr || !ok(aclmdlAddDatasetBuffer(output_set_, buffer), "aclmdlAddDatasetBuffer(output)")) {
        aclrtFree(output);
        return false;
      }
    }
    return true;
  }

  bool classify(const char* image_path) {
    std::ifstream file(image_path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) return false;
    if (bytes.size() != input_size_) {
      std::fprintf(stderr, "%s has %zu bytes; the model's input takes %zu\n", image_path, bytes.size(), input_size_);
      return false;
    }
    void* staging = nullptr;
    if (!ok(aclrtMallocHost(&staging, bytes.size()), "aclrtMallocHost")) return false;
    std::copy(bytes.begin(), bytes.end(), static_cast<char*>(staging));
    const bool copied = ok(aclrtMemcpy(input_, input_size_, staging, bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy(input)");
    aclrtFreeHost(staging);
    if (!copied) return false;
    if (!ok(aclmdlExecute(model_id_, input_set_, output_set_), "aclmdlExecute")) return false;

    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(output_set_); ++i) {
      aclDataBuffer* buffer = aclmdlGetDatasetBuffer(output_set_, i);
      void* data = aclGetDataBufferAddr(buffer);
      const size_t size = aclGetDataBufferSizeV2(buffer);
      void* host = data;
      if (on_host_) {
        if (!ok(aclrtMallocHost(&host, size), "aclrtMallocHost(output)")) return false;
        if (!ok(aclrtMemcpy(host, size, data, size, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy(output)")) {
          aclrtFreeHost(host);
          return false;
        }
      }
      const float* scores = static_cast<const float*>(host);
      char suffix[32];
      std::snprintf(suffix, sizeof suffix, ".output%zu.bin", i);
      std::ofstream(std::string(image_path) + suffix, std::ios::binary).write(static_cast<const char*>(host),
                                                                               static_cast<std::streamsize>(size));
      std::multimap<float, size_t, std::greater<float> > ranked;
      for (size_t k = 0; k < size / sizeof(float); ++k) ranked.insert(std::make_pair(scores[k], k));
      int rank = 0;
      for (std::multimap<float, size_t, std::greater<float> >::const_iterator it = ranked.begin();
           it != ranked.end() && rank < 5; ++it)
        std::printf("image %s: top %d: index[%zu] value[%f]\n", image_path, ++rank, it->second, it->first);
      if (on_host_) aclrtFreeHost(host);
    }
    return true;
  }

 private:
  void release() {
    if (loaded_) aclmdlUnload(model_id_);
    if (desc_ != nullptr) aclmdlDestroyDesc(desc_);
    release_dataset(input_set_, false);
    release_dataset(output_set_, true);
    if (input_ != nullptr) aclrtFree(input_);
    if (work_ != nullptr) aclrtFree(work_);
    if (weight_ != nullptr) aclrtFree(weight_);
    if (stream_ != nullptr) aclrtDestroyStream(stream_);
    if (context_ != nullptr) aclrtDestroyContext(context_);
    if (device_set_) aclrtResetDevice(0);
    if (initialized_) aclFinalize();
  }
  static void release_dataset(aclmdlDataset* dataset, bool free_memory) {
    if (dataset == nullptr) return;
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(dataset); ++i) {
      aclDataBuffer* buffer = aclmdlGetDatasetBuffer(dataset, i);
      if (free_memory) aclrtFree(aclGetDataBufferAddr(buffer));
      aclDestroyDataBuffer(buffer);
    }
    aclmdlDestroyDataset(dataset);
  }

  bool initialized_ = false, device_set_ = false, loaded_ = false, on_host_ = true;
  aclrtContext context_ = nullptr;
  aclrtStream stream_ = nullptr;
  uint32_t model_id_ = 0;
  size_t work_size_ = 0, weight_size_ = 0, input_size_ = 0;
  void* work_ = nullptr;
  void* weight_ = nullptr;
  void* input_ = nullptr;
  aclmdlDesc* desc_ = nullptr;
  aclmdlDataset* input_set_ = nullptr;
  aclmdlDataset* output_set_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODEL.om IMAGE.bin [IMAGE.bin ...]\n", argv[0]);
    return 1;
  }
  Classifier classifier;
  if (!classifier.init(argv[1])) return 1;
  for (int i = 2; i < argc; ++i)
    if (!classifier.classify(argv[i])) return 1;
  return 0;
}
