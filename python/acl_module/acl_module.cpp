// The `acl` module: acl.init / acl.finalize, data buffers, and the rt / mdl / util / prof parts.
#include <acl/acl.h>

#include <string>

#include "acl_binding.hpp"
#include "int_enum_calls.h"

namespace asc::pyacl {
namespace {

void bind_data_buffers(py::module_& m) {
  m.def("create_data_buffer", [](std::uintptr_t data, std::size_t size) {
    return address(aclCreateDataBuffer(handle<void>(data), size));
  }, py::arg("data"), py::arg("size"));
  m.def("destroy_data_buffer", [](std::uintptr_t buffer) { return aclDestroyDataBuffer(handle<aclDataBuffer>(buffer)); });
  m.def("get_data_buffer_addr", [](std::uintptr_t buffer) {
    return address(aclGetDataBufferAddr(handle<aclDataBuffer>(buffer)));
  });
  m.def("get_data_buffer_size", [](std::uintptr_t buffer) {
    return aclGetDataBufferSizeV2(handle<aclDataBuffer>(buffer));
  });
  m.def("get_data_buffer_size_v2", [](std::uintptr_t buffer) {
    return aclGetDataBufferSizeV2(handle<aclDataBuffer>(buffer));
  });
  m.def("update_data_buffer", [](std::uintptr_t buffer, std::uintptr_t data, std::size_t size) {
    return aclUpdateDataBuffer(handle<aclDataBuffer>(buffer), handle<void>(data), size);
  });
  m.def("data_type_size", [](int dtype) { return pyacl_data_type_size(dtype); });
}

}  // namespace
}  // namespace asc::pyacl

PYBIND11_MODULE(acl, m) {
  using namespace asc::pyacl;
  m.doc() = "pyACL-compatible bindings of libascendcl (ascend-tools' ACL runtime on the simulated NPU)";
  m.def("init", [](const std::string& config_path) {
    return aclInit(config_path.empty() ? nullptr : config_path.c_str());
  }, py::arg("config_path") = "");
  m.def("finalize", &aclFinalize, release_gil());
  m.def("get_recent_err_msg", [] {
    const char* message = aclGetRecentErrMsg();
    return std::string(message == nullptr ? "" : message);
  });
  bind_data_buffers(m);
  py::module_ rt = m.def_submodule("rt", "devices, contexts, streams, events, memory, callbacks");
  bind_rt(rt);
  py::module_ mdl = m.def_submodule("mdl", "models: loading, descriptions, datasets, execution");
  bind_mdl(mdl);
  py::module_ util = m.def_submodule("util", "pointers and numpy arrays, callback threads");
  bind_util(util);
  py::module_ prof = m.def_submodule("prof", "profiling into msprof's PROF_* directory");
  bind_prof(prof);
}
