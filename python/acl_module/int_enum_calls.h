/* The ACL calls whose enum parameters Python passes as plain ints, made from C.
 *
 * pyACL takes a memcpy kind, a malloc policy and the like as any Python int. In C++, converting an
 * int outside an enum's range to the enum (static_cast) is undefined behaviour, and UBSan's
 * -fsanitize=enum reports the load; in C, any int converts to an enum type. So the module passes
 * the caller's number through these C functions, and libascendcl checks it (c_enum_value,
 * runtime/src/api_guard.hpp) and answers ACL_ERROR_INVALID_PARAM for an unknown one, as it does
 * for a C program. */
#ifndef ASC_PYACL_INT_ENUM_CALLS_H
#define ASC_PYACL_INT_ENUM_CALLS_H

#include <acl/acl.h>
#include <acl/acl_prof.h>

#ifdef __cplusplus
extern "C" {
#endif

aclError pyacl_malloc(void** pointer, size_t size, int policy);
aclError pyacl_memcpy(void* dst, size_t dest_max, const void* src, size_t count, int kind);
aclError pyacl_memcpy_async(void* dst, size_t dest_max, const void* src, size_t count, int kind, aclrtStream stream);
aclError pyacl_get_mem_info(int attr, size_t* free, size_t* total);
aclError pyacl_launch_callback(aclrtCallback fn, void* user_data, int block, aclrtStream stream);
aclprofConfig* pyacl_prof_create_config(uint32_t* devices, uint32_t count, int metrics, aclprofAicoreEvents* events,
                                        uint64_t types);
size_t pyacl_data_type_size(int dtype);

#ifdef __cplusplus
}
#endif

#endif
