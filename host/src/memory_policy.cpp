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
  // One heap for every thread. With a heap per thread, memory a kernel thread freed (GEMM packing
  // buffers, scratch) stayed in that thread's heap, out of reach of the activations the main
  // thread allocates next: BERT-base's ais_bench run peaked 120 MB higher (702 against 579 MiB).
  // The kernels allocate rarely and in large blocks, so the shared heap's lock is not contended.
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace asc::host
