// Shared by the ACL runtime tests: the test models compiled to .om once per process (with the
// project's atc), and small helpers around the C API.
#pragma once

#include <acl/acl.h>

#include <filesystem>
#include <string>
#include <vector>

namespace acl_test {

// "affine" (float32 in and out), "affine_fp16" (the same model with --input_fp16_nodes=x
// --output_type=FP32), "dyn_affine" (dynamic batch 1,2,4), "hw_affine" (image sizes 2x2, 4x4).
std::filesystem::path om(const std::string& model);
const std::filesystem::path& work_dir();

// aclInit + aclrtSetDevice(0) for one test case; undone (reset + finalize) at scope exit.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

// The recent error message, or "" when none.
std::string recent_message();

// Device buffer with `values` copied in (aclrtMalloc + aclrtMemcpy).
void* device_floats(const std::vector<float>& values);
std::vector<float> host_floats(const void* device, std::size_t count);

}  // namespace acl_test
