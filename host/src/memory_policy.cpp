#include "asc/host/memory_policy.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace asc::host {

void retain_freed_memory() {
#if defined(__GLIBC__)
  // Blocks up to 32 MB (glibc's largest mmap threshold on 64-bit) come from the heap, and up to
  // 1 GB of free heap stays mapped.
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
}

}  // namespace asc::host
