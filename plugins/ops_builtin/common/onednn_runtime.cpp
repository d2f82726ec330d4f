#if defined(ASC_HAVE_ONEDNN)
#include "common/onednn_runtime.hpp"

#include <omp.h>

#include <cstring>
#include <string>
#include <unordered_map>

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

dnnl::memory& onednn_thread_memory(int argument, const dnnl::memory::desc& desc, void* handle) {
  // Keyed by the argument and the descriptor's bytes (oneDNN zeroes a descriptor before filling
  // it in, so equal descriptors have equal bytes).
  thread_local std::unordered_map<std::string, dnnl::memory> memories;
  std::string key(sizeof(int) + sizeof(desc.data), '\0');
  std::memcpy(key.data(), &argument, sizeof(int));
  std::memcpy(key.data() + sizeof(int), &desc.data, sizeof(desc.data));
  auto found = memories.find(key);
  if (found == memories.end()) found = memories.emplace(std::move(key), dnnl::memory(desc, onednn_engine(), handle)).first;
  else found->second.set_data_handle(handle);
  return found->second;
}

}  // namespace asc::ops
#endif
