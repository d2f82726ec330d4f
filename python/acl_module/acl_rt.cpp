// acl.rt: devices, contexts, streams, events, memory and host callbacks.
#include <acl/acl.h>

#include <memory>

#include "acl_binding.hpp"
#include "int_enum_calls.h"

namespace asc::pyacl {
namespace {

// A Python callback and its user data, owned by the queued callback until it has run.
struct PendingCallback {
  py::function fn;
  py::object user_data;
};

void run_callback(void* data) {
  py::gil_scoped_acquire gil;
  std::unique_ptr<PendingCallback> pending(static_cast<PendingCallback*>(data));
  try {
    pending->fn(pending->user_data);
  } catch (py::error_already_set& error) {
    error.discard_as_unraisable("acl.rt.launch_callback's callback");
  }
}

void bind_devices(py::module_& rt) {
  rt.def("set_device", &aclrtSetDevice, release_gil());
  rt.def("reset_device", &aclrtResetDevice, release_gil());
  rt.def("get_device", [] {
    int32_t device = -1;
    const aclError ret = aclrtGetDevice(&device);
    return py::make_tuple(device, ret);
  });
  rt.def("get_device_count", [] {
    uint32_t count = 0;
    const aclError ret = aclrtGetDeviceCount(&count);
    return py::make_tuple(count, ret);
  });
  rt.def("get_run_mode", [] {
    aclrtRunMode mode = ACL_HOST;
    const aclError ret = aclrtGetRunMode(&mode);
    return py::make_tuple(static_cast<int>(mode), ret);
  });
  rt.def("get_soc_name", [] {
    const char* name = aclrtGetSocName();
    return std::string(name == nullptr ? "" : name);
  });
  rt.def("synchronize_device", &aclrtSynchronizeDevice, release_gil());
  rt.def("create_context", [](int32_t device) {
    aclrtContext context = nullptr;
    const aclError ret = aclrtCreateContext(&context, device);
    return py::make_tuple(address(context), ret);
  });
  rt.def("destroy_context", [](std::uintptr_t context) {
    py::gil_scoped_release release;
    return aclrtDestroyContext(handle<void>(context));
  });
  rt.def("set_context", [](std::uintptr_t context) { return aclrtSetCurrentContext(handle<void>(context)); });
  rt.def("get_context", [] {
    aclrtContext context = nullptr;
    const aclError ret = aclrtGetCurrentContext(&context);
    return py::make_tuple(address(context), ret);
  });
}

void bind_streams_and_events(py::module_& rt) {
  rt.def("create_stream", [] {
    aclrtStream stream = nullptr;
    const aclError ret = aclrtCreateStream(&stream);
    return py::make_tuple(address(stream), ret);
  });
  rt.def("destroy_stream", [](std::uintptr_t stream) {
    py::gil_scoped_release release;
    return aclrtDestroyStream(handle<void>(stream));
  });
  rt.def("synchronize_stream", [](std::uintptr_t stream) {
    py::gil_scoped_release release;
    return aclrtSynchronizeStream(handle<void>(stream));
  });
  rt.def("create_event", [] {
    aclrtEvent event = nullptr;
    const aclError ret = aclrtCreateEvent(&event);
    return py::make_tuple(address(event), ret);
  });
  rt.def("destroy_event", [](std::uintptr_t event) { return aclrtDestroyEvent(handle<void>(event)); });
  rt.def("record_event", [](std::uintptr_t event, std::uintptr_t stream) {
    return aclrtRecordEvent(handle<void>(event), handle<void>(stream));
  });
  rt.def("reset_event", [](std::uintptr_t event, std::uintptr_t stream) {
    return aclrtResetEvent(handle<void>(event), handle<void>(stream));
  });
  rt.def("query_event", [](std::uintptr_t event) {
    aclrtEventStatus status = ACL_EVENT_STATUS_NOT_READY;
    const aclError ret = aclrtQueryEvent(handle<void>(event), &status);
    return py::make_tuple(static_cast<int>(status), ret);
  });
  rt.def("synchronize_event", [](std::uintptr_t event) {
    py::gil_scoped_release release;
    return aclrtSynchronizeEvent(handle<void>(event));
  });
  rt.def("stream_wait_event", [](std::uintptr_t stream, std::uintptr_t event) {
    return aclrtStreamWaitEvent(handle<void>(stream), handle<void>(event));
  });
  rt.def("event_elapsed_time", [](std::uintptr_t start, std::uintptr_t end) {
    float ms = 0;
    const aclError ret = aclrtEventElapsedTime(&ms, handle<void>(start), handle<void>(end));
    return py::make_tuple(ms, ret);
  });
}

void bind_memory(py::module_& rt) {
  rt.def("malloc", [](std::size_t size, int policy) {
    void* pointer = nullptr;
    const aclError ret = pyacl_malloc(&pointer, size, policy);
    return py::make_tuple(address(pointer), ret);
  }, py::arg("size"), py::arg("policy") = 0);
  rt.def("malloc_host", [](std::size_t size) {
    void* pointer = nullptr;
    const aclError ret = aclrtMallocHost(&pointer, size);
    return py::make_tuple(address(pointer), ret);
  });
  rt.def("free", [](std::uintptr_t pointer) { return aclrtFree(handle<void>(pointer)); });
  rt.def("free_host", [](std::uintptr_t pointer) { return aclrtFreeHost(handle<void>(pointer)); });
  rt.def("memcpy", [](std::uintptr_t dst, std::size_t dest_max, std::uintptr_t src, std::size_t count, int kind) {
    py::gil_scoped_release release;
    return pyacl_memcpy(handle<void>(dst), dest_max, handle<void>(src), count, kind);
  });
  rt.def("memcpy_async", [](std::uintptr_t dst, std::size_t dest_max, std::uintptr_t src, std::size_t count, int kind,
                            std::uintptr_t stream) {
    return pyacl_memcpy_async(handle<void>(dst), dest_max, handle<void>(src), count, kind, handle<void>(stream));
  });
  rt.def("memset", [](std::uintptr_t pointer, std::size_t max_count, int32_t value, std::size_t count) {
    py::gil_scoped_release release;
    return aclrtMemset(handle<void>(pointer), max_count, value, count);
  });
  rt.def("memset_async", [](std::uintptr_t pointer, std::size_t max_count, int32_t value, std::size_t count,
                            std::uintptr_t stream) {
    return aclrtMemsetAsync(handle<void>(pointer), max_count, value, count, handle<void>(stream));
  });
  rt.def("get_mem_info", [](int attr) {
    size_t free = 0, total = 0;
    const aclError ret = pyacl_get_mem_info(attr, &free, &total);
    return py::make_tuple(free, total, ret);
  });
}

void bind_callbacks(py::module_& rt) {
  rt.def("subscribe_report", [](std::uint64_t thread_id, std::uintptr_t stream) {
    return aclrtSubscribeReport(thread_id, handle<void>(stream));
  });
  rt.def("unsubscribe_report", [](std::uint64_t thread_id, std::uintptr_t stream) {
    py::gil_scoped_release release;
    return aclrtUnSubscribeReport(thread_id, handle<void>(stream));
  });
  rt.def("launch_callback", [](py::function fn, py::object user_data, int block, std::uintptr_t stream) {
    auto pending = std::make_unique<PendingCallback>(PendingCallback{std::move(fn), std::move(user_data)});
    const aclError ret = pyacl_launch_callback(run_callback, pending.get(), block, handle<void>(stream));
    if (ret == ACL_SUCCESS) pending.release();  // run_callback owns it now
    return ret;
  });
  rt.def("process_report", [](int32_t timeout) {
    py::gil_scoped_release release;
    return aclrtProcessReport(timeout);
  });
}

}  // namespace

void bind_rt(py::module_& rt) {
  bind_devices(rt);
  bind_streams_and_events(rt);
  bind_memory(rt);
  bind_callbacks(rt);
}

}  // namespace asc::pyacl
