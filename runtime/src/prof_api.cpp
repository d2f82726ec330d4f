// acl_prof.h: aclprofInit .. aclprofFinalize over the runtime's profiler (profiler.hpp).
//
// A configuration becomes msprof's collection request (PROFILER_SAMPLECONFIG's keys, read by
// the SDK's parser, so both ways of profiling mean the same thing): ACL_PROF_TASK_TIME is
// taskTime "on", ACL_PROF_TASK_TIME_L0 alone "l0", neither "off"; ACL_PROF_AICORE_METRICS with
// ACL_AICORE_PIPE_UTILIZATION is the task-based PipeUtilization PMU columns. The other data
// types are recorded in sample.json only (the simulator has no API, AI CPU, L2 or HCCL layer
// to report).
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "api_guard.hpp"
#include "asc/sdk/log.hpp"
#include "device.hpp"
#include "handle_table.hpp"
#include "profiler.hpp"

struct aclprofConfig {
  asc::msprof::CollectionOptions options;
};

namespace asc::acl {
namespace {

HandleTable<aclprofConfig>& configs() {
  static HandleTable<aclprofConfig> table;
  return table;
}

std::shared_ptr<aclprofConfig> config_of(const aclprofConfig* handle) {
  if (handle == nullptr) fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is null");
  std::shared_ptr<aclprofConfig> config = configs().find(handle);
  if (config == nullptr)
    fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "profilerConfig is not a live configuration (aclprofCreateConfig)");
  return config;
}

// `metrics` is the caller's value (c_enum_value): a C caller may pass any int.
const char* metrics_name(long long metrics) {
  switch (metrics) {
    case ACL_AICORE_ARITHMETIC_UTILIZATION: return "ArithmeticUtilization";
    case ACL_AICORE_PIPE_UTILIZATION: return "PipeUtilization";
    case ACL_AICORE_MEMORY_BANDWIDTH: return "Memory";
    case ACL_AICORE_L0B_AND_WIDTH: return "MemoryL0";
    case ACL_AICORE_RESOURCE_CONFLICT_RATIO: return "ResourceConflictRatio";
    case ACL_AICORE_MEMORY_UB: return "MemoryUB";
    case ACL_AICORE_L2_CACHE: return "L2Cache";
    case ACL_AICORE_PIPE_EXECUTE_UTILIZATION: return "PipelineExecuteUtilization";
    case ACL_AICORE_NONE: return "";
  }
  fail(ACL_ERROR_INVALID_PARAM, "aicoreMetrics " + std::to_string(metrics) + " is not an aclprofAicoreMetrics value");
}

std::string on_off(bool on) { return on ? "on" : "off"; }

// The collection request msprof would have written for this configuration.
msprof::CollectionOptions collection_for(const std::vector<std::uint32_t>& devices, long long metrics,
                                         std::uint64_t types, const std::filesystem::path& result_dir) {
  const std::string group = metrics_name(metrics);
  // Programs commonly pass 0 (ArithmeticUtilization) without reading the PMU data: the profile
  // is written, with task times and without PMU columns, rather than refused.
  const bool modelled = metrics == ACL_AICORE_PIPE_UTILIZATION;
  if (!group.empty() && !modelled)
    log_warning("aclprofCreateConfig: aicoreMetrics " + group + " is not modelled (the simulator's PMU model fills "
                "ACL_AICORE_PIPE_UTILIZATION only): the profile has no PMU columns");
  const bool ai_core = (types & ACL_PROF_AICORE_METRICS) != 0 && modelled;
  std::string task_time = "off";
  if ((types & ACL_PROF_TASK_TIME) != 0 || (types & ACL_PROF_TASK_TIME_L2) != 0)
    task_time = "on";
  else if ((types & ACL_PROF_TASK_TIME_L0) != 0)
    task_time = "l0";
  std::string device_list;
  for (const std::uint32_t device : devices) device_list += (device_list.empty() ? "" : ",") + std::to_string(device);
  const nlohmann::ordered_json request = {
      {"result_dir", result_dir.string()},
      {"devices", device_list},
      {"ai_core_profiling", on_off(ai_core)},
      {"ai_core_profiling_mode", "task-based"},
      {"ai_core_metrics", ai_core ? group : std::string()},
      {"aicoreMetricsRequested", group},
      {"taskTime", task_time},
      {"acl", on_off((types & ACL_PROF_ACL_API) != 0)},
      {"runtimeApi", on_off((types & ACL_PROF_RUNTIME_API) != 0)},
      {"aicpu", on_off((types & ACL_PROF_AICPU) != 0)},
      {"l2", on_off((types & ACL_PROF_L2CACHE) != 0)},
      {"hccl", on_off((types & ACL_PROF_HCCL_TRACE) != 0)},
      {"msproftx", on_off((types & ACL_PROF_MSPROFTX) != 0)},
      {"dataTypeConfig", types},
  };
  return msprof::parse_sample_config(request.dump(), "the profiling configuration");
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  return api_call(__func__, [&] {
    if (profilerResultPath == nullptr) fail(ACL_ERROR_INVALID_PARAM, "profilerResultPath is null");
    if (length == 0 || length != std::strlen(profilerResultPath))
      fail(ACL_ERROR_INVALID_PARAM, "length " + std::to_string(length) + " is not the length of profilerResultPath \"" +
                                        profilerResultPath + "\" (" + std::to_string(std::strlen(profilerResultPath)) + ")");
    profiler().init(profilerResultPath);
  });
}

aclError aclprofFinalize(void) {
  return api_call(__func__, [&] { profiler().finalize(); });
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* /*aicoreEvents: reserved, as in CANN*/,
                                   uint64_t dataTypeConfig) {
  return api_value<aclprofConfig*>(__func__, nullptr, [&] {
    if (deviceIdList == nullptr) fail(ACL_ERROR_INVALID_PARAM, "deviceIdList is null");
    if (deviceNums == 0) fail(ACL_ERROR_INVALID_PARAM, "deviceNums is 0");
    std::vector<std::uint32_t> devices(deviceIdList, deviceIdList + deviceNums);
    for (const std::uint32_t device : devices) check_device_id(static_cast<std::int32_t>(device));
    auto config = std::make_shared<aclprofConfig>();
    config->options = collection_for(devices, c_enum_value(aicoreMetrics), dataTypeConfig, profiler().result_dir());
    return static_cast<aclprofConfig*>(configs().add(std::move(config)));
  });
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  return api_call(__func__, [&] {
    (void)config_of(profilerConfig);
    configs().remove(profilerConfig);
  });
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  return api_call(__func__, [&] { profiler().start(config_of(profilerConfig)->options, profilerConfig); });
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  return api_call(__func__, [&] {
    (void)config_of(profilerConfig);
    profiler().stop(profilerConfig);
  });
}

}  // extern "C"
