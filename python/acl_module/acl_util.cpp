// acl.util: host pointers as ints for numpy arrays and bytes, and the threads pyACL programs
// start for aclrtProcessReport (acl.util.start_thread's id is the thread's pthread id, which
// acl.rt.subscribe_report takes).
#include <acl/acl.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "acl_binding.hpp"

namespace asc::pyacl {
namespace {

std::mutex threads_mutex;
std::map<std::uint64_t, std::thread> threads;  // started by start_thread, not yet stopped

py::array pointer_as_array(std::uintptr_t pointer, const std::vector<py::ssize_t>& shape, int npy_type) {
  auto& api = py::detail::npy_api::get();
  py::dtype dtype = py::reinterpret_steal<py::dtype>(api.PyArray_DescrFromType_(npy_type));
  if (!dtype) throw py::error_already_set();
  // A view of the memory (no copy), as pyACL's: the caller keeps the memory alive while using it.
  py::capsule no_owner(reinterpret_cast<void*>(pointer), [](void*) {});
  return py::array(dtype, shape, handle<void>(pointer), no_owner);
}

}  // namespace

void bind_util(py::module_& util) {
  util.def("numpy_to_ptr", [](py::array array) {
    if (!(array.flags() & py::array::c_style))
      throw py::value_error("acl.util.numpy_to_ptr: the array is not C-contiguous (np.ascontiguousarray first)");
    return address(array.data());
  });
  util.def("ptr_to_numpy", &pointer_as_array, py::arg("ptr"), py::arg("shape"), py::arg("npy_type"));
  util.def("bytes_to_ptr", [](py::bytes data) { return address(PyBytes_AsString(data.ptr())); });
  util.def("ptr_to_bytes", [](std::uintptr_t pointer, std::size_t size) {
    return py::bytes(handle<const char>(pointer), size);
  });
  util.def("start_thread", [](py::function fn, py::object args) {
    std::thread thread([fn, args]() mutable {
      py::gil_scoped_acquire gil;
      try {
        fn(args);
      } catch (py::error_already_set& error) {
        error.discard_as_unraisable("acl.util.start_thread's function");
      }
      // The Python objects go while the GIL is held.
      fn.release().dec_ref();
      args.release().dec_ref();
    });
    const auto id = static_cast<std::uint64_t>(thread.native_handle());
    std::lock_guard lock(threads_mutex);
    threads.emplace(id, std::move(thread));
    return py::make_tuple(id, ACL_SUCCESS);
  });
  util.def("stop_thread", [](std::uint64_t id) {
    std::thread thread;
    {
      std::lock_guard lock(threads_mutex);
      const auto found = threads.find(id);
      if (found == threads.end()) return ACL_ERROR_INVALID_PARAM;
      thread = std::move(found->second);
      threads.erase(found);
    }
    py::gil_scoped_release release;
    thread.join();  // pyACL's stop_thread waits for the thread's function to return
    return ACL_SUCCESS;
  });
}

}  // namespace asc::pyacl
