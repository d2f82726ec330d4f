#include "acl_fixture.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <unistd.h>

namespace acl_test {
namespace {

void run(const std::string& command) {
  if (std::system(command.c_str()) != 0) throw std::runtime_error("command failed: " + command);
}

std::filesystem::path compile(const std::string& model) {
  const std::filesystem::path& dir = work_dir();
  static std::once_flag generated;
  std::call_once(generated, [&] { run(std::string(ASC_TEST_PYTHON) + " " + ASC_MAKE_MODELS_SCRIPT + " " + dir.string()); });
  const std::map<std::string, std::string> flags = {
      {"affine", "--model=affine.onnx"},
      {"affine_fp16", "--model=affine.onnx --input_fp16_nodes=x --output_type=FP32"},
      {"dyn_affine", "--model=dyn_affine.onnx --input_shape=x:-1,4 --dynamic_batch_size=1,2,4"},
      {"hw_affine", "--model=hw_affine.onnx --input_shape=x:1,1,-1,-1 \"--dynamic_image_size=2,2;4,4\""},
  };
  const std::filesystem::path om = dir / (model + ".om");
  run("cd " + dir.string() + " && " + ASC_ATC + " " + flags.at(model) + " --framework=5 --soc_version=Ascend310 --output=" +
      model + " --log=error > " + model + ".atc.log 2>&1");
  return om;
}

}  // namespace

const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    auto path = std::filesystem::temp_directory_path() / ("acl_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  return dir;
}

std::filesystem::path om(const std::string& model) {
  static std::mutex mutex;
  static std::map<std::string, std::filesystem::path> compiled;
  std::lock_guard lock(mutex);
  auto found = compiled.find(model);
  if (found == compiled.end()) found = compiled.emplace(model, compile(model)).first;
  return found->second;
}

Session::Session() {
  REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
}

Session::~Session() {
  aclrtResetDevice(0);
  aclFinalize();
}

std::string recent_message() {
  const char* message = aclGetRecentErrMsg();
  return message == nullptr ? "" : message;
}

void* device_floats(const std::vector<float>& values) {
  void* device = nullptr;
  const std::size_t bytes = values.size() * sizeof(float);
  REQUIRE(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  REQUIRE(aclrtMemcpy(device, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  return device;
}

std::vector<float> host_floats(const void* device, std::size_t count) {
  std::vector<float> values(count);
  REQUIRE(aclrtMemcpy(values.data(), count * sizeof(float), device, count * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST) ==
          ACL_SUCCESS);
  return values;
}

}  // namespace acl_test
