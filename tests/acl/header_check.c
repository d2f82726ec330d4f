/* The ACL headers compile as C (C99) and declare what a C program calls. */
#include <acl/acl.h>
#include <acl/acl_prof.h>

int acl_headers_compile_as_c(void) {
  aclmdlIODims dims;
  aclrtMemcpyKind kind = ACL_MEMCPY_DEVICE_TO_HOST;
  aclError (*init)(const char*) = aclInit;
  dims.dimCount = 0;
  return (int)dims.dimCount + (int)kind + (init != 0) + ACL_ERROR_INVALID_PARAM;
}
