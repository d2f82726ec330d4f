// Model descriptions (aclmdlDesc): a snapshot of a loaded model's inputs, outputs and dynamic
// profiles, readable after the model is unloaded (as on the card).
#include <cstring>
#include <memory>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "model.hpp"

struct aclmdlDesc {
  bool filled = false;
  std::shared_ptr<asc::acl::Model> model;  // the loaded model it describes
};

namespace asc::acl {
namespace {

HandleTable<aclmdlDesc>& descs() {
  static HandleTable<aclmdlDesc> table;
  return table;
}

const Model& described(const aclmdlDesc* desc) {
  if (desc == nullptr) fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
  std::shared_ptr<aclmdlDesc> found = descs().find(desc);
  if (found == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "modelDesc is not a live description");
  if (!found->filled) fail(ACL_ERROR_INVALID_PARAM, "modelDesc is empty: call aclmdlGetDesc first");
  return *found->model;
}

const ModelIo& io_at(const std::vector<ModelIo>& ios, size_t index, const char* kind) {
  if (index >= ios.size())
    fail(ACL_ERROR_INVALID_PARAM, std::string(kind) + " index " + std::to_string(index) + " is past the model's " +
                                      std::to_string(ios.size()) + " " + kind + "s");
  return ios[index];
}

void fill_dims(const std::string& name, const Shape& shape, aclmdlIODims* dims) {
  if (dims == nullptr) fail(ACL_ERROR_INVALID_PARAM, "dims is null");
  if (shape.size() > ACL_MAX_DIM_CNT) fail(ACL_ERROR_INVALID_PARAM, "rank " + std::to_string(shape.size()) + " is over ACL_MAX_DIM_CNT");
  std::memset(dims, 0, sizeof *dims);
  std::strncpy(dims->name, name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  dims->dimCount = shape.size();
  for (size_t i = 0; i < shape.size(); ++i) dims->dims[i] = shape[i];
}

size_t index_by_name(const std::vector<ModelIo>& ios, const char* name, const char* kind) {
  if (name == nullptr) fail(ACL_ERROR_INVALID_PARAM, "name is null");
  for (size_t i = 0; i < ios.size(); ++i)
    if (ios[i].name == name) return i;
  std::string names;
  for (const ModelIo& io : ios) names += (names.empty() ? "" : ", ") + io.name;
  fail(ACL_ERROR_INVALID_PARAM, std::string("the model has no ") + kind + " named '" + name + "' (" + kind + "s: " + names + ")");
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclmdlDesc* aclmdlCreateDesc(void) {
  return api_value<aclmdlDesc*>(__func__, nullptr, [&] {
    return static_cast<aclmdlDesc*>(descs().add(std::make_shared<aclmdlDesc>()));
  }, false);
}

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  return api_call(__func__, [&] {
    if (modelDesc == nullptr) fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
    if (descs().remove(modelDesc) == nullptr)
      fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "modelDesc is not a live description (destroyed already?)");
  }, false);
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  return api_call(__func__, [&] {
    if (modelDesc == nullptr) fail(ACL_ERROR_INVALID_PARAM, "modelDesc is null");
    std::shared_ptr<aclmdlDesc> desc = descs().find(modelDesc);
    if (desc == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "modelDesc is not a live description");
    desc->model = model_of(modelId);
    desc->filled = true;
  });
}

size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
  return api_value<size_t>(__func__, 0, [&] { return described(modelDesc).inputs.size(); }, false);
}

size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
  return api_value<size_t>(__func__, 0, [&] { return described(modelDesc).outputs.size(); }, false);
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  return api_value<size_t>(__func__, 0, [&] { return io_at(described(modelDesc).inputs, index, "input").max_bytes; }, false);
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  return api_value<size_t>(__func__, 0, [&] { return io_at(described(modelDesc).outputs, index, "output").max_bytes; }, false);
}

aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api_call(__func__, [&] {
    const ModelIo& io = io_at(described(modelDesc).inputs, index, "input");
    fill_dims(io.name, io.dims, dims);
  }, false);
}

aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return aclmdlGetInputDims(modelDesc, index, dims);
}

aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api_call(__func__, [&] {
    const ModelIo& io = io_at(described(modelDesc).outputs, index, "output");
    fill_dims(io.name, io.dims, dims);
  }, false);
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api_call(__func__, [&] {
    Model& model = const_cast<Model&>(described(modelDesc));
    const ModelIo& io = io_at(model.outputs, index, "output");
    std::lock_guard lock(model.output_mutex);
    fill_dims(io.name, model.current_output_shapes.at(index), dims);
  }, false);
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<const char*>(__func__, "", [&] { return io_at(described(modelDesc).inputs, index, "input").name.c_str(); }, false);
}

const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<const char*>(__func__, "", [&] { return io_at(described(modelDesc).outputs, index, "output").name.c_str(); }, false);
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclFormat>(__func__, ACL_FORMAT_UNDEFINED, [&] { return io_at(described(modelDesc).inputs, index, "input").format; }, false);
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclFormat>(__func__, ACL_FORMAT_UNDEFINED, [&] { return io_at(described(modelDesc).outputs, index, "output").format; }, false);
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclDataType>(__func__, ACL_DT_UNDEFINED, [&] { return io_at(described(modelDesc).inputs, index, "input").acl_dtype; }, false);
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index) {
  return api_value<aclDataType>(__func__, ACL_DT_UNDEFINED, [&] { return io_at(described(modelDesc).outputs, index, "output").acl_dtype; }, false);
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return api_call(__func__, [&] {
    if (index == nullptr) fail(ACL_ERROR_INVALID_PARAM, "index is null");
    *index = index_by_name(described(modelDesc).inputs, name, "input");
  }, false);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return api_call(__func__, [&] {
    if (index == nullptr) fail(ACL_ERROR_INVALID_PARAM, "index is null");
    *index = index_by_name(described(modelDesc).outputs, name, "output");
  }, false);
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch) {
  return api_call(__func__, [&] {
    if (batch == nullptr) fail(ACL_ERROR_INVALID_PARAM, "batch is null");
    const Model& model = described(modelDesc);
    std::memset(batch, 0, sizeof *batch);
    if (model.dynamic != DynamicKind::Batch) return;  // CANN: batchCount 0 for a model without dynamic batch
    for (const ModelProfile& profile : model.profiles)
      if (!profile.values.empty() && batch->batchCount < ACL_MAX_BATCH_NUM) batch->batch[batch->batchCount++] = profile.values[0];
  }, false);
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t /*index*/, aclmdlHW* hw) {
  return api_call(__func__, [&] {
    if (hw == nullptr) fail(ACL_ERROR_INVALID_PARAM, "hw is null");
    const Model& model = described(modelDesc);
    std::memset(hw, 0, sizeof *hw);
    if (model.dynamic != DynamicKind::ImageSize) return;
    for (const ModelProfile& profile : model.profiles)
      if (profile.values.size() >= 2 && hw->hwCount < ACL_MAX_HW_NUM) {
        hw->hw[hw->hwCount][0] = profile.values[0];
        hw->hw[hw->hwCount][1] = profile.values[1];
        ++hw->hwCount;
      }
  }, false);
}

}  // extern "C"
