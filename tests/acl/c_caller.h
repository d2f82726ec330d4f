// c_caller.c: ACL calls made as a C program makes them, any int for an enum parameter.
#pragma once

#include <acl/acl.h>
#include <acl/acl_prof.h>

extern "C" {
aclError c_caller_malloc_cached(void** devPtr, size_t size, int policy);
aclprofConfig* c_caller_create_prof_config(uint32_t* devices, uint32_t count, int metrics, uint64_t types);
size_t c_caller_data_type_size(int dataType);
void c_caller_app_log(int level, const char* text);
aclTensorDesc* c_caller_create_tensor_desc(int dataType, int format);  // dims {2, 3}
}
