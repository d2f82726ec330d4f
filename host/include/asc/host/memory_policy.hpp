// How the tools that run models use the C library's heap.
#pragma once

namespace asc::host {

// Keeps freed memory in the process's heap instead of returning it to the kernel (glibc's trim
// and mmap thresholds raised; other C libraries: no effect). A model run allocates and frees the
// same activation sizes on every inference; returned to the kernel, ResNet-50's ~40 MB of
// activations were page-faulted back in on every run (about 3 ms of one thread's time per
// inference on the 2-core benchmark machine). All threads share one heap (see the .cpp). Called once, first thing, by asc, ais_bench and
// the benchmarks: the executables own the process's memory policy, not the plugins.
void retain_freed_memory();

}  // namespace asc::host
