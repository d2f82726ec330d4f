// Profiling (acl_prof.h and msprof's PROFILER_SAMPLECONFIG): the calls' order and error codes,
// and the PROF_* directory of one execution of the affine model: its copies as MEMCPY_ASYNC
// tasks around its kernels, on the stream they ran on.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "acl_fixture.hpp"
#include "c_caller.h"

using acl_test::recent_message;

namespace {

std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir = acl_test::work_dir() / name;
  std::filesystem::remove_all(dir);
  return dir;
}

// The one PROF_* directory under `dir`, or "" when there is not exactly one.
std::filesystem::path only_prof(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> found;
  if (std::filesystem::exists(dir))
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().filename().string().rfind("PROF_", 0) == 0) found.push_back(entry.path());
  return found.size() == 1 ? found.front() : std::filesystem::path();
}

// The rows of the profile's `kind`_*.csv (header first), split at commas.
std::vector<std::vector<std::string>> csv_rows(const std::filesystem::path& prof, const std::string& kind) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& entry : std::filesystem::directory_iterator(prof / "mindstudio_profiler_output")) {
    if (entry.path().filename().string().rfind(kind + "_", 0) != 0) continue;
    std::ifstream file(entry.path());
    for (std::string line; std::getline(file, line);) {
      std::vector<std::string> cells;
      std::stringstream stream(line);
      for (std::string cell; std::getline(stream, cell, ',');) cells.push_back(cell);
      rows.push_back(cells);
    }
  }
  return rows;
}

// y = 2x + 1 on the affine model (float32[2,4]): copy in, execute, copy out.
void run_affine(uint32_t model) {
  const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
  void* input = acl_test::device_floats(x);
  void* output = nullptr;
  REQUIRE(aclrtMalloc(&output, 32, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS);
  aclmdlDataset* inputs = aclmdlCreateDataset();
  aclmdlDataset* outputs = aclmdlCreateDataset();
  REQUIRE(aclmdlAddDatasetBuffer(inputs, aclCreateDataBuffer(input, 32)) == ACL_SUCCESS);
  REQUIRE(aclmdlAddDatasetBuffer(outputs, aclCreateDataBuffer(output, 32)) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(model, inputs, outputs) == ACL_SUCCESS);
  CHECK(acl_test::host_floats(output, 8) == std::vector<float>{1, 3, 5, 7, 9, 11, 13, 15});
  for (aclmdlDataset* dataset : {inputs, outputs}) {
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dataset, 0));
    aclmdlDestroyDataset(dataset);
  }
  aclrtFree(input);
  aclrtFree(output);
}

}  // namespace

TEST_CASE("profiling: call order and arguments are checked") {
  uint32_t devices[] = {0};
  CHECK(aclprofInit("prof", 4) == ACL_ERROR_UNINITIALIZE);
  acl_test::Session session;
  const std::filesystem::path dir = fresh_dir("prof_errors");
  const std::string path = dir.string();
  CHECK(aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, nullptr, ACL_PROF_TASK_TIME) == nullptr);
  CHECK(recent_message().find("aclprofInit first") != std::string::npos);
  CHECK(aclprofFinalize() == ACL_ERROR_PROF_NOT_RUN);
  CHECK(aclprofInit(nullptr, 0) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclprofInit(path.c_str(), path.size() + 1) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclprofInit(path.c_str(), path.size()) == ACL_SUCCESS);
  CHECK(std::filesystem::is_directory(dir));
  CHECK(aclprofInit(path.c_str(), path.size()) == ACL_ERROR_REPEAT_INITIALIZE);

  uint32_t other_device[] = {1};
  CHECK(aclprofCreateConfig(other_device, 1, ACL_AICORE_PIPE_UTILIZATION, nullptr, ACL_PROF_TASK_TIME) == nullptr);
  CHECK(aclprofCreateConfig(devices, 0, ACL_AICORE_PIPE_UTILIZATION, nullptr, ACL_PROF_TASK_TIME) == nullptr);
  CHECK(aclprofCreateConfig(devices, 1, static_cast<aclprofAicoreMetrics>(42), nullptr, ACL_PROF_TASK_TIME) == nullptr);
  // A C caller's 1000, outside the enum's range (0 to 255): refused, not read as the enum.
  CHECK(c_caller_create_prof_config(devices, 1, 1000, ACL_PROF_TASK_TIME) == nullptr);
  CHECK(recent_message().find("aicoreMetrics 1000 is not an aclprofAicoreMetrics value") != std::string::npos);
  aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, nullptr,
                                              ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS);
  // An unmodelled group is accepted (a profile without PMU columns), as programs pass 0 commonly.
  aclprofConfig* other = aclprofCreateConfig(devices, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, nullptr, ACL_PROF_TASK_TIME);
  REQUIRE(config != nullptr);
  REQUIRE(other != nullptr);
  CHECK(aclprofStop(config) == ACL_ERROR_PROF_NOT_RUN);
  CHECK(aclprofStart(nullptr) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclprofStart(config) == ACL_SUCCESS);
  CHECK(aclprofStart(config) == ACL_ERROR_PROF_ALREADY_RUN);
  CHECK(aclprofStart(other) == ACL_ERROR_PROF_ALREADY_RUN);
  CHECK(aclprofStop(other) == ACL_ERROR_INVALID_PARAM);
  CHECK(aclprofStop(config) == ACL_SUCCESS);  // an empty profile: nothing ran
  CHECK(!only_prof(dir).empty());
  CHECK(aclprofDestroyConfig(config) == ACL_SUCCESS);
  CHECK(aclprofDestroyConfig(config) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclprofStart(config) == ACL_ERROR_INVALID_RESOURCE_HANDLE);
  CHECK(aclprofDestroyConfig(other) == ACL_SUCCESS);
  CHECK(aclprofFinalize() == ACL_SUCCESS);
  CHECK(aclprofFinalize() == ACL_ERROR_PROF_NOT_RUN);
}

TEST_CASE("profiling: one execution's copies and kernels, in order on its stream") {
  const std::filesystem::path om = acl_test::om("affine");
  acl_test::Session session;
  const std::filesystem::path dir = fresh_dir("prof_affine");
  const std::string path = dir.string();
  uint32_t model = 0;
  REQUIRE(aclmdlLoadFromFile(om.c_str(), &model) == ACL_SUCCESS);
  run_affine(model);  // before the collection: not in the profile
  uint32_t devices[] = {0};
  REQUIRE(aclprofInit(path.c_str(), path.size()) == ACL_SUCCESS);
  aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, nullptr,
                                              ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS);
  REQUIRE(config != nullptr);
  REQUIRE(aclprofStart(config) == ACL_SUCCESS);
  run_affine(model);
  REQUIRE(aclprofStop(config) == ACL_SUCCESS);
  run_affine(model);  // after: not in it either
  REQUIRE(aclprofDestroyConfig(config) == ACL_SUCCESS);
  REQUIRE(aclprofFinalize() == ACL_SUCCESS);

  const std::filesystem::path prof = only_prof(dir);
  REQUIRE(!prof.empty());
  const auto tasks = csv_rows(prof, "task_time");
  REQUIRE(tasks.size() >= 4);  // header, copy in, at least one kernel, copy out
  CHECK(tasks[0][1] == "kernel_name");
  CHECK(tasks[1][2] == "MEMCPY_ASYNC");
  CHECK(tasks.back()[2] == "MEMCPY_ASYNC");
  double previous_stop = 0;
  for (std::size_t i = 1; i < tasks.size(); ++i) {
    if (i > 1 && i + 1 < tasks.size()) CHECK(tasks[i][2] == "KERNEL_AICORE");
    CHECK(tasks[i][3] == tasks[1][3]);                      // one stream: the default one
    CHECK(tasks[i][4] == std::to_string(i - 1));            // task ids count up on it
    const double start = std::stod(tasks[i][6]), stop = std::stod(tasks[i][7]);
    CHECK(start >= previous_stop - 1e-3);                    // in order, not overlapping
    CHECK(stop - start == doctest::Approx(std::stod(tasks[i][5])).epsilon(1e-3));
    previous_stop = stop;
  }
  // op_summary lists the kernels only, with the PipeUtilization columns.
  const auto ops = csv_rows(prof, "op_summary");
  CHECK(ops.size() == tasks.size() - 2);
  CHECK(std::find(ops[0].begin(), ops[0].end(), "mte2_ratio") != ops[0].end());
  CHECK(std::filesystem::exists(prof / "device_0" / "sample.json"));
  aclmdlUnload(model);
}

TEST_CASE("profiling: an ASC_ACL_TIMING_ONLY=1 execution's kernels equal a full execution's") {
  const std::filesystem::path om = acl_test::om("affine");
  acl_test::Session session;
  const std::filesystem::path dir = fresh_dir("prof_timing_only");
  const std::string path = dir.string();
  uint32_t model = 0;
  REQUIRE(aclmdlLoadFromFile(om.c_str(), &model) == ACL_SUCCESS);
  uint32_t devices[] = {0};
  REQUIRE(aclprofInit(path.c_str(), path.size()) == ACL_SUCCESS);
  aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, nullptr,
                                              ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS);
  REQUIRE(config != nullptr);
  REQUIRE(aclprofStart(config) == ACL_SUCCESS);
  run_affine(model);
  // The same execution without the computation: the output keeps what it held (ones here).
  const std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
  void* input = acl_test::device_floats(x);
  void* output = acl_test::device_floats(std::vector<float>(8, 1.0f));
  aclmdlDataset* inputs = aclmdlCreateDataset();
  aclmdlDataset* outputs = aclmdlCreateDataset();
  REQUIRE(aclmdlAddDatasetBuffer(inputs, aclCreateDataBuffer(input, 32)) == ACL_SUCCESS);
  REQUIRE(aclmdlAddDatasetBuffer(outputs, aclCreateDataBuffer(output, 32)) == ACL_SUCCESS);
  setenv("ASC_ACL_TIMING_ONLY", "1", 1);
  const aclError status = aclmdlExecute(model, inputs, outputs);
  unsetenv("ASC_ACL_TIMING_ONLY");
  CHECK(status == ACL_SUCCESS);
  CHECK(acl_test::host_floats(output, 8) == std::vector<float>(8, 1.0f));
  for (aclmdlDataset* dataset : {inputs, outputs}) {
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dataset, 0));
    aclmdlDestroyDataset(dataset);
  }
  aclrtFree(input);
  aclrtFree(output);
  REQUIRE(aclprofStop(config) == ACL_SUCCESS);
  REQUIRE(aclprofDestroyConfig(config) == ACL_SUCCESS);
  REQUIRE(aclprofFinalize() == ACL_SUCCESS);

  const std::filesystem::path prof = only_prof(dir);
  REQUIRE(!prof.empty());
  std::vector<std::vector<std::string>> kernels;  // name, type, duration
  for (const auto& row : csv_rows(prof, "task_time"))
    if (row.size() > 5 && row[2] == "KERNEL_AICORE") kernels.push_back({row[1], row[2], row[5]});
  REQUIRE(kernels.size() >= 2);
  REQUIRE(kernels.size() % 2 == 0);
  const std::size_t half = kernels.size() / 2;
  for (std::size_t i = 0; i < half; ++i) {
    CAPTURE(i);
    CHECK(kernels[half + i] == kernels[i]);
  }
  aclmdlUnload(model);
}

TEST_CASE("profiling: msprof's PROFILER_SAMPLECONFIG profiles from aclInit to aclFinalize") {
  const std::filesystem::path om = acl_test::om("affine");
  const std::filesystem::path dir = fresh_dir("prof_msprof");
  const std::string request = "{\"result_dir\":\"" + dir.string() + "\",\"taskTime\":\"on\"}";
  setenv("PROFILER_SAMPLECONFIG", "{\"taskTime\":\"on\"}", 1);  // no result_dir: refused
  CHECK(aclInit(nullptr) == ACL_ERROR_INVALID_PROFILING_CONFIG);
  CHECK(recent_message().find("result_dir") != std::string::npos);
  setenv("PROFILER_SAMPLECONFIG", request.c_str(), 1);
  {
    acl_test::Session session;
    unsetenv("PROFILER_SAMPLECONFIG");
    const std::string path = (dir / "api").string();
    CHECK(aclprofInit(path.c_str(), path.size()) == ACL_ERROR_PROF_API_CONFLICT);
    uint32_t model = 0;
    REQUIRE(aclmdlLoadFromFile(om.c_str(), &model) == ACL_SUCCESS);
    run_affine(model);
    aclmdlUnload(model);
    CHECK(only_prof(dir).empty());  // written at aclFinalize
  }
  const std::filesystem::path prof = only_prof(dir);
  REQUIRE(!prof.empty());
  const auto tasks = csv_rows(prof, "task_time");
  REQUIRE(tasks.size() >= 4);
  CHECK(tasks[1][2] == "MEMCPY_ASYNC");
  CHECK(tasks.back()[2] == "MEMCPY_ASYNC");
}
