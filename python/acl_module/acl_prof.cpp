// acl.prof: pyACL's profiling calls (init, create_config, start, stop, destroy_config,
// finalize), and the seed's short form:
//   acl.prof.start({"output": DIR, "task": ..., "device_range": [0], "aicore_metrics": "PipeUtilization"})
//   acl.prof.stop()
// which is aclprofInit(DIR) + aclprofCreateConfig(devices, metrics, task time + AI Core metrics)
// + aclprofStart, and aclprofStop + aclprofDestroyConfig + aclprofFinalize.
#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "acl_binding.hpp"
#include "int_enum_calls.h"

namespace asc::pyacl {
namespace {

aclprofConfig* short_form_config = nullptr;  // the collection acl.prof.start(dict) started

// msprof's metric group names (--aic-metrics) as aclprofAicoreMetrics.
aclprofAicoreMetrics metrics_named(const std::string& name) {
  static const std::map<std::string, aclprofAicoreMetrics> names = {
      {"ArithmeticUtilization", ACL_AICORE_ARITHMETIC_UTILIZATION},
      {"PipeUtilization", ACL_AICORE_PIPE_UTILIZATION},
      {"Memory", ACL_AICORE_MEMORY_BANDWIDTH},
      {"MemoryL0", ACL_AICORE_L0B_AND_WIDTH},
      {"ResourceConflictRatio", ACL_AICORE_RESOURCE_CONFLICT_RATIO},
      {"MemoryUB", ACL_AICORE_MEMORY_UB},
      {"L2Cache", ACL_AICORE_L2_CACHE},
      {"PipelineExecuteUtilization", ACL_AICORE_PIPE_EXECUTE_UTILIZATION},
      {"", ACL_AICORE_NONE},
  };
  const auto found = names.find(name);
  if (found == names.end())
    throw py::value_error("acl.prof.start: \"aicore_metrics\" is \"" + name +
                          "\"; expected one of msprof's groups (PipeUtilization, ArithmeticUtilization, Memory, ...)");
  return found->second;
}

aclError start_short_form(const py::dict& config) {
  static const std::vector<std::string> keys = {"output", "task", "device_range", "aicore_metrics"};
  for (const auto& item : config) {
    const std::string key = py::str(item.first);
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      throw py::value_error("acl.prof.start: unknown key \"" + key + "\" (keys: output, task, device_range, aicore_metrics)");
  }
  if (!config.contains("output")) throw py::value_error("acl.prof.start: the configuration has no \"output\" directory");
  const std::string output = py::str(config["output"]);
  std::vector<uint32_t> devices = {0};
  if (config.contains("device_range")) devices = config["device_range"].cast<std::vector<uint32_t>>();
  const aclprofAicoreMetrics metrics =
      metrics_named(config.contains("aicore_metrics") ? std::string(py::str(config["aicore_metrics"])) : "PipeUtilization");
  // "task" names what is profiled ("model_execute"): every device task is, with task time.
  if (short_form_config != nullptr) return ACL_ERROR_PROF_ALREADY_RUN;
  aclError ret = aclprofInit(output.c_str(), output.size());
  if (ret != ACL_SUCCESS) return ret;
  aclprofConfig* created = aclprofCreateConfig(devices.data(), static_cast<uint32_t>(devices.size()), metrics, nullptr,
                                               ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS);
  if (created == nullptr) {
    aclprofFinalize();
    return ACL_ERROR_INVALID_PARAM;  // the message is in acl.get_recent_err_msg()
  }
  ret = aclprofStart(created);
  if (ret != ACL_SUCCESS) {
    aclprofDestroyConfig(created);
    aclprofFinalize();
    return ret;
  }
  short_form_config = created;
  return ACL_SUCCESS;
}

aclError stop_short_form() {
  if (short_form_config == nullptr) return ACL_ERROR_PROF_NOT_RUN;
  aclprofConfig* config = short_form_config;
  short_form_config = nullptr;
  aclError ret;
  {
    py::gil_scoped_release release;
    ret = aclprofStop(config);
  }
  const aclError destroyed = aclprofDestroyConfig(config);
  const aclError finalized = aclprofFinalize();
  return ret != ACL_SUCCESS ? ret : destroyed != ACL_SUCCESS ? destroyed : finalized;
}

}  // namespace

void bind_prof(py::module_& prof) {
  prof.def("init", [](const std::string& path) { return aclprofInit(path.c_str(), path.size()); });
  prof.def("finalize", &aclprofFinalize, release_gil());
  prof.def("create_config", [](std::vector<uint32_t> devices, int metrics, std::uintptr_t events, uint64_t types) {
    return address(pyacl_prof_create_config(devices.data(), static_cast<uint32_t>(devices.size()), metrics,
                                            handle<aclprofAicoreEvents>(events), types));
  }, py::arg("device_list"), py::arg("aicore_metrics"), py::arg("aicore_events"), py::arg("data_type_config"));
  prof.def("destroy_config", [](std::uintptr_t config) { return aclprofDestroyConfig(handle<aclprofConfig>(config)); });
  prof.def("start", [](py::object config) -> aclError {
    if (py::isinstance<py::dict>(config)) return start_short_form(config.cast<py::dict>());
    return aclprofStart(handle<aclprofConfig>(config.cast<std::uintptr_t>()));
  }, py::arg("config"));
  prof.def("stop", [](py::object config) -> aclError {
    if (config.is_none()) return stop_short_form();
    const auto value = config.cast<std::uintptr_t>();
    py::gil_scoped_release release;
    return aclprofStop(handle<aclprofConfig>(value));
  }, py::arg("config") = py::none());
}

}  // namespace asc::pyacl
