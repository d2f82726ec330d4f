// What the kernels on oneDNN (Debian's libdnnl-dev; ASC_HAVE_ONEDNN builds only) share: the CPU
// engine, and running oneDNN on the calling thread alone.
//
// Debian's oneDNN threads with OpenMP. The kernels already split their work over
// asc::parallel_for's pool (a GEMM per column block, a convolution per image or band of rows, each
// on its own pool thread), so every thread that calls oneDNN caps its own OpenMP team at one
// thread: oneDNN then runs on the caller and never starts a second, spinning team beside the pool
// on the same cores (which, measured on 2 cores, made a ResNet-50 run several times slower while
// another process was busy).
#pragma once

#if defined(ASC_HAVE_ONEDNN)
#include <dnnl.hpp>

namespace asc::ops {

// Caps the calling thread's OpenMP team at one thread (once per thread). Call before creating or
// executing a primitive: oneDNN sizes a primitive's work split by the creating thread's team.
void onednn_on_calling_thread();

const dnnl::engine& onednn_engine();

// The calling thread's stream on onednn_engine() (in-order; wait() after execute()).
dnnl::stream& onednn_thread_stream();

// The calling thread's memory object for execute argument `argument` (DNNL_ARG_SRC, ...) with
// descriptor `desc`, pointing at `handle`: created at the first call, then re-pointed. Creating
// one allocates with posix_memalign, which glibc serves under the lock of the heap the tools share
// between threads (host/src/memory_policy.cpp): two threads creating
// the memory objects of their pieces at once waited on each other (a futex sleep of 30-60 us
// a piece on this 2-core VM, most of ResNet-50 b1's context switches). Valid until this thread's
// next call with the same argument and descriptor.
dnnl::memory& onednn_thread_memory(int argument, const dnnl::memory::desc& desc, void* handle);

}  // namespace asc::ops
#endif
