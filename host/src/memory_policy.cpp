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
  // The shared heap's lock is contended where two threads allocate aligned blocks at once:
  // glibc 2.36 serves posix_memalign under it (no tcache), and oneDNN's memory objects and its
  // sgemm's packing buffers are such blocks (the channels-last Conv keeps its memory objects per
  // thread for this: onednn_thread_memory). A heap per thread, measured in session 19: peak RSS
  // 10-30 MB higher on ResNet-50, ViT and BERT, and times mixed (ViT 1.8 % and MobileNetV2 4 %
  // faster, ResNet-50 b1 2.8 % slower, 3 alternations each), so it stays one heap.
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace asc::host
