// The structs behind aclDataBuffer, aclTensorDesc and aclmdlDataset, and their checked lookup:
// a handle not created here (or destroyed) is an error code, not a dereference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_mdl.h"
#include "handle_table.hpp"

struct aclDataBuffer {
  void* data = nullptr;
  std::size_t size = 0;
};

struct aclTensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<std::int64_t> dims;
  aclFormat format = ACL_FORMAT_UNDEFINED;
};

struct aclmdlDataset {
  std::vector<aclDataBuffer*> buffers;
  std::vector<aclTensorDesc*> descs;  // per buffer; nullptr when not set (borrowed)
};

namespace asc::acl {

HandleTable<aclDataBuffer>& data_buffers();
HandleTable<aclmdlDataset>& datasets();

// ACL_ERROR_INVALID_PARAM for null, ACL_ERROR_INVALID_RESOURCE_HANDLE for a stale handle. A data
// buffer is read as a copy of its pointer and size; a dataset is held while it is used.
aclDataBuffer data_buffer_of(const aclDataBuffer* buffer);
std::shared_ptr<aclmdlDataset> dataset_of(const aclmdlDataset* dataset, const char* which = "dataset");

}  // namespace asc::acl
