/* See int_enum_calls.h: each int converts to the enum parameter as C allows. */
#include "int_enum_calls.h"

aclError pyacl_malloc(void** pointer, size_t size, int policy) { return aclrtMalloc(pointer, size, policy); }

aclError pyacl_memcpy(void* dst, size_t dest_max, const void* src, size_t count, int kind) {
  return aclrtMemcpy(dst, dest_max, src, count, kind);
}

aclError pyacl_memcpy_async(void* dst, size_t dest_max, const void* src, size_t count, int kind, aclrtStream stream) {
  return aclrtMemcpyAsync(dst, dest_max, src, count, kind, stream);
}

aclError pyacl_get_mem_info(int attr, size_t* free, size_t* total) { return aclrtGetMemInfo(attr, free, total); }

aclError pyacl_launch_callback(aclrtCallback fn, void* user_data, int block, aclrtStream stream) {
  return aclrtLaunchCallback(fn, user_data, block, stream);
}

aclprofConfig* pyacl_prof_create_config(uint32_t* devices, uint32_t count, int metrics, aclprofAicoreEvents* events,
                                        uint64_t types) {
  return aclprofCreateConfig(devices, count, metrics, events, types);
}

size_t pyacl_data_type_size(int dtype) { return aclDataTypeSize(dtype); }
