#if defined(ASC_HAVE_ONEDNN)
#include "common/onednn_runtime.hpp"

#include <omp.h>

namespace asc::ops {

void onednn_on_calling_thread() {
  thread_local const bool single_threaded = [] {
    omp_set_num_threads(1);
    return true;
  }();
  (void)single_threaded;
}

const dnnl::engine& onednn_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream& onednn_thread_stream() {
  thread_local dnnl::stream stream(onednn_engine());
  return stream;
}

}  // namespace asc::ops
#endif
