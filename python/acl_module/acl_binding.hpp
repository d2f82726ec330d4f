// The pyACL-compatible `acl` module over libascendcl: shared helpers of its parts.
//
// pyACL's conventions: handles and pointers are Python ints; a call returns `ret` (the aclError)
// alone, or a tuple whose last element is `ret`; getters that cannot fail return their value.
// Calls that may wait on the device release the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace asc::pyacl {

namespace py = pybind11;

template <class T> T* handle(std::uintptr_t value) { return reinterpret_cast<T*>(value); }
inline std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

using release_gil = py::call_guard<py::gil_scoped_release>;

void bind_rt(py::module_& rt);
void bind_mdl(py::module_& mdl);
void bind_util(py::module_& util);
void bind_prof(py::module_& prof);

}  // namespace asc::pyacl
