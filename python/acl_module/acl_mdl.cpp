// acl.mdl: loading, descriptions (dims as pyACL's dicts), datasets, execution, dynamic batch/HW.
#include <acl/acl.h>

#include <string>

#include "acl_binding.hpp"

namespace asc::pyacl {
namespace {

aclmdlDesc* desc(std::uintptr_t value) { return handle<aclmdlDesc>(value); }
aclmdlDataset* dataset(std::uintptr_t value) { return handle<aclmdlDataset>(value); }

// pyACL's dims dict: {"name": str, "dimCount": int, "dims": [int, ...]}.
py::dict dims_dict(const aclmdlIODims& dims) {
  py::list values;
  for (size_t i = 0; i < dims.dimCount && i < ACL_MAX_DIM_CNT; ++i) values.append(dims.dims[i]);
  py::dict result;
  result["name"] = std::string(dims.name);
  result["dimCount"] = dims.dimCount;
  result["dims"] = values;
  return result;
}

template <class Getter> py::tuple dims_call(Getter getter, std::uintptr_t model_desc, size_t index) {
  aclmdlIODims dims{};
  const aclError ret = getter(desc(model_desc), index, &dims);
  return py::make_tuple(dims_dict(dims), ret);
}

std::string text(const char* value) { return value == nullptr ? "" : value; }

void bind_loading(py::module_& mdl) {
  mdl.def("load_from_file", [](const std::string& path) {
    uint32_t id = 0;
    aclError ret;
    {
      py::gil_scoped_release release;
      ret = aclmdlLoadFromFile(path.c_str(), &id);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("load_from_mem", [](std::uintptr_t model, size_t size) {
    uint32_t id = 0;
    aclError ret;
    {
      py::gil_scoped_release release;
      ret = aclmdlLoadFromMem(handle<void>(model), size, &id);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("load_from_file_with_mem", [](const std::string& path, std::uintptr_t work, size_t work_size,
                                        std::uintptr_t weight, size_t weight_size) {
    uint32_t id = 0;
    aclError ret;
    {
      py::gil_scoped_release release;
      ret = aclmdlLoadFromFileWithMem(path.c_str(), &id, handle<void>(work), work_size,
                                                     handle<void>(weight), weight_size);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("load_from_mem_with_mem", [](std::uintptr_t model, size_t size, std::uintptr_t work, size_t work_size,
                                       std::uintptr_t weight, size_t weight_size) {
    uint32_t id = 0;
    aclError ret;
    {
      py::gil_scoped_release release;
      ret = aclmdlLoadFromMemWithMem(handle<void>(model), size, &id, handle<void>(work), work_size,
                                                    handle<void>(weight), weight_size);
    }
    return py::make_tuple(id, ret);
  });
  mdl.def("query_size", [](const std::string& path) {
    size_t work = 0, weight = 0;
    aclError ret;
    {
      py::gil_scoped_release release;
      ret = aclmdlQuerySize(path.c_str(), &work, &weight);
    }
    return py::make_tuple(work, weight, ret);
  });
  mdl.def("unload", &aclmdlUnload, release_gil());
}

void bind_descriptions(py::module_& mdl) {
  mdl.def("create_desc", [] { return address(aclmdlCreateDesc()); });
  mdl.def("destroy_desc", [](std::uintptr_t d) { return aclmdlDestroyDesc(desc(d)); });
  mdl.def("get_desc", [](std::uintptr_t d, uint32_t id) { return aclmdlGetDesc(desc(d), id); });
  mdl.def("get_num_inputs", [](std::uintptr_t d) { return aclmdlGetNumInputs(desc(d)); });
  mdl.def("get_num_outputs", [](std::uintptr_t d) { return aclmdlGetNumOutputs(desc(d)); });
  mdl.def("get_input_size_by_index", [](std::uintptr_t d, size_t i) { return aclmdlGetInputSizeByIndex(desc(d), i); });
  mdl.def("get_output_size_by_index", [](std::uintptr_t d, size_t i) { return aclmdlGetOutputSizeByIndex(desc(d), i); });
  mdl.def("get_input_dims", [](std::uintptr_t d, size_t i) { return dims_call(aclmdlGetInputDims, d, i); });
  mdl.def("get_input_dims_v2", [](std::uintptr_t d, size_t i) { return dims_call(aclmdlGetInputDimsV2, d, i); });
  mdl.def("get_output_dims", [](std::uintptr_t d, size_t i) { return dims_call(aclmdlGetOutputDims, d, i); });
  mdl.def("get_cur_output_dims", [](std::uintptr_t d, size_t i) { return dims_call(aclmdlGetCurOutputDims, d, i); });
  mdl.def("get_input_name_by_index", [](std::uintptr_t d, size_t i) { return text(aclmdlGetInputNameByIndex(desc(d), i)); });
  mdl.def("get_output_name_by_index", [](std::uintptr_t d, size_t i) { return text(aclmdlGetOutputNameByIndex(desc(d), i)); });
  mdl.def("get_input_format", [](std::uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetInputFormat(desc(d), i)); });
  mdl.def("get_output_format", [](std::uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetOutputFormat(desc(d), i)); });
  mdl.def("get_input_data_type", [](std::uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetInputDataType(desc(d), i)); });
  mdl.def("get_output_data_type", [](std::uintptr_t d, size_t i) { return static_cast<int>(aclmdlGetOutputDataType(desc(d), i)); });
  mdl.def("get_input_index_by_name", [](std::uintptr_t d, const std::string& name) {
    size_t index = 0;
    const aclError ret = aclmdlGetInputIndexByName(desc(d), name.c_str(), &index);
    return py::make_tuple(index, ret);
  });
  mdl.def("get_output_index_by_name", [](std::uintptr_t d, const std::string& name) {
    size_t index = 0;
    const aclError ret = aclmdlGetOutputIndexByName(desc(d), name.c_str(), &index);
    return py::make_tuple(index, ret);
  });
  // {"batchCount": n, "batch": [...]} and {"hwCount": n, "hw": [[h, w], ...]}.
  mdl.def("get_dynamic_batch", [](std::uintptr_t d) {
    aclmdlBatch batch{};
    const aclError ret = aclmdlGetDynamicBatch(desc(d), &batch);
    py::list values;
    for (size_t i = 0; i < batch.batchCount && i < ACL_MAX_BATCH_NUM; ++i) values.append(batch.batch[i]);
    py::dict result;
    result["batchCount"] = batch.batchCount;
    result["batch"] = values;
    return py::make_tuple(result, ret);
  });
  // `index` is -1 in pyACL scripts (the model's own input): a signed int here.
  mdl.def("get_dynamic_hw", [](std::uintptr_t d, int64_t index) {
    aclmdlHW hw{};
    const aclError ret = aclmdlGetDynamicHW(desc(d), static_cast<size_t>(index), &hw);
    py::list values;
    for (size_t i = 0; i < hw.hwCount && i < ACL_MAX_HW_NUM; ++i) values.append(py::make_tuple(hw.hw[i][0], hw.hw[i][1]));
    py::dict result;
    result["hwCount"] = hw.hwCount;
    result["hw"] = values;
    return py::make_tuple(result, ret);
  });
}

void bind_datasets_and_execution(py::module_& mdl) {
  mdl.def("create_dataset", [] { return address(aclmdlCreateDataset()); });
  mdl.def("destroy_dataset", [](std::uintptr_t ds) { return aclmdlDestroyDataset(dataset(ds)); });
  // pyACL returns (dataset, ret).
  mdl.def("add_dataset_buffer", [](std::uintptr_t ds, std::uintptr_t buffer) {
    const aclError ret = aclmdlAddDatasetBuffer(dataset(ds), handle<aclDataBuffer>(buffer));
    return py::make_tuple(ds, ret);
  });
  mdl.def("get_dataset_num_buffers", [](std::uintptr_t ds) { return aclmdlGetDatasetNumBuffers(dataset(ds)); });
  mdl.def("get_dataset_buffer", [](std::uintptr_t ds, size_t i) { return address(aclmdlGetDatasetBuffer(dataset(ds), i)); });
  mdl.def("execute", [](uint32_t id, std::uintptr_t in, std::uintptr_t out) {
    py::gil_scoped_release release;
    return aclmdlExecute(id, dataset(in), dataset(out));
  });
  mdl.def("execute_async", [](uint32_t id, std::uintptr_t in, std::uintptr_t out, std::uintptr_t stream) {
    return aclmdlExecuteAsync(id, dataset(in), dataset(out), handle<void>(stream));
  });
  mdl.def("set_dynamic_batch_size", [](uint32_t id, std::uintptr_t ds, size_t index, uint64_t batch) {
    return aclmdlSetDynamicBatchSize(id, dataset(ds), index, batch);
  });
  mdl.def("set_dynamic_hw_size", [](uint32_t id, std::uintptr_t ds, size_t index, uint64_t height, uint64_t width) {
    return aclmdlSetDynamicHWSize(id, dataset(ds), index, height, width);
  });
}

}  // namespace

void bind_mdl(py::module_& mdl) {
  bind_loading(mdl);
  bind_descriptions(mdl);
  bind_datasets_and_execution(mdl);
}

}  // namespace asc::pyacl
