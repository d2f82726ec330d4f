// Data buffers, datasets and tensor descriptions.
#include "data_buffer.hpp"

#include <cstdarg>
#include <cstdio>
#include <limits>
#include <string>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "asc/sdk/half.hpp"

namespace asc::acl {

HandleTable<aclDataBuffer>& data_buffers() {
  static HandleTable<aclDataBuffer> table;
  return table;
}

HandleTable<aclmdlDataset>& datasets() {
  static HandleTable<aclmdlDataset> table;
  return table;
}

namespace {

bool is_data_type(long long value) {
  switch (value) {
    case ACL_DT_UNDEFINED: case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT8: case ACL_INT32: case ACL_UINT8:
    case ACL_INT16: case ACL_UINT16: case ACL_UINT32: case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE:
    case ACL_BOOL: case ACL_STRING: case ACL_COMPLEX64: case ACL_COMPLEX128: case ACL_BF16: case ACL_INT4:
    case ACL_UINT1: case ACL_COMPLEX32:
      return true;
    default:
      return false;
  }
}

bool is_format(long long value) {
  switch (value) {
    case ACL_FORMAT_UNDEFINED: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND:
    case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_NC1HWC0_C04: case ACL_FORMAT_HWCN:
    case ACL_FORMAT_NDHWC: case ACL_FORMAT_FRACTAL_NZ: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NDC1HWC0:
    case ACL_FRACTAL_Z_3D: case ACL_FORMAT_NC: case ACL_FORMAT_NCL:
      return true;
    default:
      return false;
  }
}

std::shared_ptr<aclDataBuffer> live_buffer(const aclDataBuffer* buffer) {
  if (buffer == nullptr) fail(ACL_ERROR_INVALID_PARAM, "dataBuffer is null");
  std::shared_ptr<aclDataBuffer> found = data_buffers().find(buffer);
  if (found == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "dataBuffer is not a live data buffer");
  return found;
}

}  // namespace

aclDataBuffer data_buffer_of(const aclDataBuffer* buffer) { return *live_buffer(buffer); }

std::shared_ptr<aclmdlDataset> dataset_of(const aclmdlDataset* dataset, const char* which) {
  if (dataset == nullptr) fail(ACL_ERROR_INVALID_PARAM, std::string(which) + " is null");
  std::shared_ptr<aclmdlDataset> found = datasets().find(dataset);
  if (found == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, std::string(which) + " is not a live dataset");
  return found;
}

}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) {
  return static_cast<float>(Eigen::numext::bit_cast<asc::float16>(value));
}

aclFloat16 aclFloatToFloat16(float value) { return Eigen::numext::bit_cast<aclFloat16>(asc::float16(value)); }

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  // CANN accepts (nullptr, 0): an empty buffer filled later with aclUpdateDataBuffer.
  return api_value<aclDataBuffer*>(__func__, nullptr, [&] {
    if (data == nullptr && size != 0) fail(ACL_ERROR_INVALID_PARAM, "data is null but size is not 0");
    auto buffer = std::make_shared<aclDataBuffer>();
    buffer->data = data;
    buffer->size = size;
    return static_cast<aclDataBuffer*>(data_buffers().add(buffer));
  }, false);
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  return api_call(__func__, [&] {
    if (dataBuffer == nullptr) fail(ACL_ERROR_INVALID_PARAM, "dataBuffer is null");
    if (data_buffers().remove(dataBuffer) == nullptr)
      fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "dataBuffer is not a live data buffer (destroyed already?)");
  }, false);
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  return api_call(__func__, [&] {
    std::shared_ptr<aclDataBuffer> buffer = live_buffer(dataBuffer);
    if (data == nullptr && size != 0) fail(ACL_ERROR_INVALID_PARAM, "data is null but size is not 0");
    buffer->data = data;
    buffer->size = size;
  }, false);
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  return api_value<void*>(__func__, nullptr, [&] { return data_buffer_of(dataBuffer).data; }, false);
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return api_value<uint32_t>(__func__, 0, [&] {
    const size_t size = data_buffer_of(dataBuffer).size;
    if (size > std::numeric_limits<uint32_t>::max())
      fail(ACL_ERROR_INVALID_PARAM, "the buffer's size does not fit 32 bits: use aclGetDataBufferSizeV2");
    return static_cast<uint32_t>(size);
  }, false);
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  return api_value<size_t>(__func__, 0, [&] { return data_buffer_of(dataBuffer).size; }, false);
}

size_t aclDataTypeSize(aclDataType dataType) {
  switch (c_enum_value(dataType)) {  // a C caller's any int; reading it as the enum could be undefined
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_INT16: case ACL_UINT16: case ACL_BF16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    case ACL_COMPLEX32: return 4;
    default: return 0;  // undefined, string, and the sub-byte types
  }
}

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims, aclFormat format) {
  return api_value<aclTensorDesc*>(__func__, nullptr, [&] {
    if (numDims < 0) fail(ACL_ERROR_INVALID_PARAM, "numDims " + std::to_string(numDims) + " is negative");
    if (numDims > 0 && dims == nullptr) fail(ACL_ERROR_INVALID_PARAM, "dims is null");
    // A C caller's any int (see c_enum_value): kept only when it names a type and a format, so
    // the getters never hand back a value outside the enums.
    const long long type_value = c_enum_value(dataType), format_value = c_enum_value(format);
    if (!is_data_type(type_value))
      fail(ACL_ERROR_INVALID_PARAM, "dataType " + std::to_string(type_value) + " is not an aclDataType value");
    if (!is_format(format_value))
      fail(ACL_ERROR_INVALID_PARAM, "format " + std::to_string(format_value) + " is not an aclFormat value");
    auto* desc = new aclTensorDesc;
    desc->dtype = dataType;
    desc->dims.assign(dims, dims + numDims);
    desc->format = format;
    return desc;
  }, false);
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) { delete desc; }
aclDataType aclGetTensorDescType(const aclTensorDesc* desc) { return desc == nullptr ? ACL_DT_UNDEFINED : desc->dtype; }
aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) { return desc == nullptr ? ACL_FORMAT_UNDEFINED : desc->format; }
size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) { return desc == nullptr ? 0 : desc->dims.size(); }

size_t aclGetTensorDescElementCount(const aclTensorDesc* desc) {
  if (desc == nullptr) return 0;
  size_t count = 1;
  for (const int64_t dim : desc->dims) count *= dim < 0 ? 0 : static_cast<size_t>(dim);
  return count;
}

size_t aclGetTensorDescSize(const aclTensorDesc* desc) {
  return desc == nullptr ? 0 : aclGetTensorDescElementCount(desc) * aclDataTypeSize(desc->dtype);
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  return api_call(__func__, [&] {
    if (desc == nullptr || dimSize == nullptr) fail(ACL_ERROR_INVALID_PARAM, "desc or dimSize is null");
    if (index >= desc->dims.size())
      fail(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is past the " +
                                        std::to_string(desc->dims.size()) + " dims");
    *dimSize = desc->dims[index];
  }, false);
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...) {
  static const char* const names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  const long long level_value = c_enum_value(logLevel);  // a C caller's any int (see c_enum_value)
  const char* level = level_value >= ACL_DEBUG && level_value <= ACL_ERROR ? names[level_value] : "LOG";
  std::fprintf(stderr, "[%s] %s:%u %s: ", level, file == nullptr ? "?" : file, line, func == nullptr ? "?" : func);
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fputc('\n', stderr);
}

aclmdlDataset* aclmdlCreateDataset(void) {
  return api_value<aclmdlDataset*>(__func__, nullptr, [&] {
    return static_cast<aclmdlDataset*>(datasets().add(std::make_shared<aclmdlDataset>()));
  }, false);
}

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  return api_call(__func__, [&] {
    if (dataset == nullptr) fail(ACL_ERROR_INVALID_PARAM, "dataset is null");
    if (datasets().remove(dataset) == nullptr)
      fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "dataset is not a live dataset (destroyed already?)");
  }, false);
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
  return api_call(__func__, [&] {
    std::shared_ptr<aclmdlDataset> target = dataset_of(dataset);
    (void)live_buffer(dataBuffer);
    target->buffers.push_back(dataBuffer);
    target->descs.push_back(nullptr);
  }, false);
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  return api_value<size_t>(__func__, 0, [&] { return dataset_of(dataset)->buffers.size(); }, false);
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
  return api_value<aclDataBuffer*>(__func__, nullptr, [&] {
    const std::shared_ptr<aclmdlDataset> held = dataset_of(dataset);
    const aclmdlDataset& source = *held;
    if (index >= source.buffers.size())
      fail(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is past the dataset's " +
                                        std::to_string(source.buffers.size()) + " buffers");
    return source.buffers[index];
  }, false);
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc, size_t index) {
  return api_call(__func__, [&] {
    const std::shared_ptr<aclmdlDataset> held = dataset_of(dataset);
    aclmdlDataset& target = *held;
    if (tensorDesc == nullptr) fail(ACL_ERROR_INVALID_PARAM, "tensorDesc is null");
    if (index >= target.buffers.size())
      fail(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is past the dataset's " +
                                        std::to_string(target.buffers.size()) + " buffers");
    target.descs[index] = tensorDesc;
  }, false);
}

aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index) {
  return api_value<aclTensorDesc*>(__func__, nullptr, [&] {
    const std::shared_ptr<aclmdlDataset> held = dataset_of(dataset);
    const aclmdlDataset& source = *held;
    if (index >= source.descs.size()) fail(ACL_ERROR_INVALID_PARAM, "index " + std::to_string(index) + " is past the buffers");
    return source.descs[index];
  }, false);
}

}  // extern "C"
