// aclmdlLoadFrom*, aclmdlQuerySize*, aclmdlUnload.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "device.hpp"
#include "memory_registry.hpp"
#include "model.hpp"

namespace asc::acl {
namespace {

// aclmdlQuerySize loads the model to size it; the load that usually follows reuses that work.
std::mutex queried_mutex;
std::filesystem::path queried_path;
std::filesystem::file_time_type queried_time;
std::shared_ptr<Model> queried_model;

std::shared_ptr<Model> load_or_reuse(const std::filesystem::path& path) {
  std::error_code error;
  const auto canonical = std::filesystem::weakly_canonical(path, error);
  const auto time = std::filesystem::last_write_time(path, error);
  {
    std::lock_guard lock(queried_mutex);
    if (queried_model && !error && canonical == queried_path && time == queried_time) {
      std::shared_ptr<Model> model = std::move(queried_model);
      queried_model.reset();
      return model;
    }
  }
  return load_model(path);
}

void remember_queried(const std::filesystem::path& path, std::shared_ptr<Model> model) {
  std::error_code error;
  std::lock_guard lock(queried_mutex);
  queried_path = std::filesystem::weakly_canonical(path, error);
  queried_time = std::filesystem::last_write_time(path, error);
  queried_model = error ? nullptr : std::move(model);
}

// A model in memory goes through a temporary file: the SDK loads models from paths.
class TemporaryModelFile {
 public:
  TemporaryModelFile(const void* model, size_t size) {
    if (model == nullptr) fail(ACL_ERROR_INVALID_PARAM, "model is null");
    if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "modelSize is 0");
    std::string pattern = (std::filesystem::temp_directory_path() / "ascendcl_model_XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd < 0) fail(ACL_ERROR_WRITE_FILE, "cannot create a temporary file for the model in " + pattern);
    path_ = pattern;
    const auto* bytes = static_cast<const char*>(model);
    size_t written = 0;
    while (written < size) {
      const ssize_t n = ::write(fd, bytes + written, size - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    ::close(fd);
    if (written != size) fail(ACL_ERROR_WRITE_FILE, "cannot write the model to " + path_.string());
  }
  ~TemporaryModelFile() {
    std::error_code error;
    std::filesystem::remove(path_, error);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

void check_user_memory(const Model& model, void* workPtr, size_t workSize, void* weightPtr, size_t weightSize) {
  if (workPtr != nullptr) {
    if (workSize < model.work_size)
      fail(ACL_ERROR_INVALID_PARAM, "workSize " + std::to_string(workSize) + " is smaller than the " +
                                        std::to_string(model.work_size) + " bytes aclmdlQuerySize gives");
    check_device_range(workPtr, workSize, "workPtr");
  }
  if (weightPtr != nullptr) {
    if (weightSize < model.weight_size)
      fail(ACL_ERROR_INVALID_PARAM, "weightSize " + std::to_string(weightSize) + " is smaller than the " +
                                        std::to_string(model.weight_size) + " bytes aclmdlQuerySize gives");
    check_device_range(weightPtr, weightSize, "weightPtr");
  }
}

// Registers the model; memory the user did not give is taken from the device.
std::uint32_t register_model(std::shared_ptr<Model> model, bool work_given, bool weight_given) {
  the_device().learn(model->executable->device());
  std::int64_t reserved = 0;
  if (!work_given) reserved += static_cast<std::int64_t>(model->work_size);
  if (!weight_given) reserved += static_cast<std::int64_t>(model->weight_size);
  const std::int64_t capacity = the_device().facts().memory_bytes;
  if (memory().device_bytes_in_use() + reserved > capacity)
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "the model needs " + std::to_string(reserved) +
                                             " bytes of device memory and " +
                                             std::to_string(capacity - memory().device_bytes_in_use()) + " are free");
  memory().reserve_device(reserved);
  model->reserved_bytes = reserved;
  return add_model(std::move(model));
}

std::uint32_t load_with_memory(const std::filesystem::path& path, void* workPtr, size_t workSize, void* weightPtr,
                               size_t weightSize) {
  std::shared_ptr<Model> model = load_or_reuse(path);
  check_user_memory(*model, workPtr, workSize, weightPtr, weightSize);
  return register_model(std::move(model), workPtr != nullptr, weightPtr != nullptr);
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
  return api_call(__func__, [&] {
    if (modelPath == nullptr || modelId == nullptr) fail(ACL_ERROR_INVALID_PARAM, "modelPath or modelId is null");
    (void)current_context();
    *modelId = load_with_memory(modelPath, nullptr, 0, nullptr, 0);
  });
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr, size_t workSize,
                                   void* weightPtr, size_t weightSize) {
  return api_call(__func__, [&] {
    if (modelPath == nullptr || modelId == nullptr) fail(ACL_ERROR_INVALID_PARAM, "modelPath or modelId is null");
    (void)current_context();
    *modelId = load_with_memory(modelPath, workPtr, workSize, weightPtr, weightSize);
  });
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
  return api_call(__func__, [&] {
    if (modelId == nullptr) fail(ACL_ERROR_INVALID_PARAM, "modelId is null");
    (void)current_context();
    const TemporaryModelFile file(model, modelSize);
    *modelId = load_with_memory(file.path(), nullptr, 0, nullptr, 0);
    model_of(*modelId)->name.clear();  // not the temporary file's name
  });
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId, void* workPtr,
                                  size_t workSize, void* weightPtr, size_t weightSize) {
  return api_call(__func__, [&] {
    if (modelId == nullptr) fail(ACL_ERROR_INVALID_PARAM, "modelId is null");
    (void)current_context();
    const TemporaryModelFile file(model, modelSize);
    *modelId = load_with_memory(file.path(), workPtr, workSize, weightPtr, weightSize);
    model_of(*modelId)->name.clear();  // not the temporary file's name
  });
}

aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize) {
  return api_call(__func__, [&] {
    if (fileName == nullptr || workSize == nullptr || weightSize == nullptr)
      fail(ACL_ERROR_INVALID_PARAM, "fileName, workSize or weightSize is null");
    std::shared_ptr<Model> model = load_model(fileName);
    *workSize = model->work_size;
    *weightSize = model->weight_size;
    remember_queried(fileName, std::move(model));
  });
}

aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize, size_t* workSize, size_t* weightSize) {
  return api_call(__func__, [&] {
    if (workSize == nullptr || weightSize == nullptr) fail(ACL_ERROR_INVALID_PARAM, "workSize or weightSize is null");
    const TemporaryModelFile file(model, modelSize);
    std::shared_ptr<Model> loaded = load_model(file.path());
    *workSize = loaded->work_size;
    *weightSize = loaded->weight_size;
  });
}

aclError aclmdlUnload(uint32_t modelId) {
  return api_call(__func__, [&] {
    std::shared_ptr<Model> model = remove_model(modelId);
    memory().unreserve_device(model->reserved_bytes);
    // Queued executions hold the model; it goes when the last of them has run.
  });
}

}  // extern "C"
