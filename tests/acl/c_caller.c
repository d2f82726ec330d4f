/* Calls that pass an enum parameter as a C program may: any int, converted to the enum type, which
   is well defined in C (a C enum is an integer type). The same cast in C++ would already be
   undefined for a value outside the enum's range, so the tests make these calls from here. */
#include <acl/acl.h>
#include <acl/acl_prof.h>

aclError c_caller_malloc_cached(void **devPtr, size_t size, int policy) {
  return aclrtMallocCached(devPtr, size, (aclrtMemMallocPolicy)policy);
}

aclprofConfig *c_caller_create_prof_config(uint32_t *devices, uint32_t count, int metrics, uint64_t types) {
  return aclprofCreateConfig(devices, count, (aclprofAicoreMetrics)metrics, NULL, types);
}

size_t c_caller_data_type_size(int dataType) { return aclDataTypeSize((aclDataType)dataType); }

void c_caller_app_log(int level, const char *text) { aclAppLog((aclLogLevel)level, "c_caller", "c_caller.c", 1, "%s", text); }

aclTensorDesc *c_caller_create_tensor_desc(int dataType, int format) {
  const int64_t dims[] = {2, 3};
  return aclCreateTensorDesc((aclDataType)dataType, 2, dims, (aclFormat)format);
}
