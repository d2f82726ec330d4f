// Memory: allocation, copies and memsets, and their place on the device timeline. A copy over
// the host link takes bytes / the link's bandwidth on its direction's engine; an on-device copy
// or memset takes bytes / the on-device copy bandwidth (DeviceFacts).
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "device.hpp"
#include "host_clock.hpp"
#include "memory_registry.hpp"
#include "profiler.hpp"

namespace asc::acl {
namespace {

double transfer_us(std::size_t bytes, double gbs) { return static_cast<double>(bytes) / (gbs * 1e3); }

const char* kind_name(aclrtMemcpyKind kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
  }
  return "?";
}

bool is_device(const void* pointer) {
  const auto allocation = memory().find(pointer);
  return allocation && allocation->kind == MemoryKind::Device;
}

// Checks `kind` (the caller's value, c_enum_value) and both sides of a copy against it
// (ACL_MEMCPY_DEFAULT: from where they point); returns the kind it is.
aclrtMemcpyKind checked_kind(void* dst, size_t destMax, const void* src, size_t count, long long kind_value) {
  if (kind_value < ACL_MEMCPY_HOST_TO_HOST || kind_value > ACL_MEMCPY_DEFAULT)
    fail(ACL_ERROR_INVALID_PARAM, "kind " + std::to_string(kind_value) + " is not an aclrtMemcpyKind");
  auto kind = static_cast<aclrtMemcpyKind>(kind_value);
  if (dst == nullptr) fail(ACL_ERROR_INVALID_PARAM, "dst is null");
  if (src == nullptr) fail(ACL_ERROR_INVALID_PARAM, "src is null");
  if (count > destMax)
    fail(ACL_ERROR_INVALID_PARAM,
         "count (" + std::to_string(count) + " bytes) is larger than destMax (" + std::to_string(destMax) + ")");
  if (kind == ACL_MEMCPY_DEFAULT) {
    const bool from_device = is_device(src), to_device = is_device(dst);
    kind = from_device ? (to_device ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST)
                       : (to_device ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_HOST_TO_HOST);
  }
  const std::string suffix = std::string(" of an ") + kind_name(kind) + " copy";
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      check_host_range(src, count, "src" + suffix);
      check_host_range(dst, count, "dst" + suffix);
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
      check_host_range(src, count, "src" + suffix);
      check_device_range(dst, count, "dst" + suffix);
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      check_device_range(src, count, "src" + suffix);
      check_host_range(dst, count, "dst" + suffix);
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      check_device_range(src, count, "src" + suffix);
      check_device_range(dst, count, "dst" + suffix);
      break;
    case ACL_MEMCPY_DEFAULT: break;  // resolved above
  }
  return kind;
}

// The copy as stream work: the bytes move when the stream reaches it, then it takes its time on
// its engine. A copy over the host link is a MEMCPY_ASYNC task of stream `stream_id` in profiles.
Stream::Work copy_work(void* dst, const void* src, size_t count, aclrtMemcpyKind kind, int stream_id) {
  return [=](double ready_us) {
    // The memory may have been freed since the call: check again before touching it.
    if (kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE)
      check_device_range(dst, count, "dst of a queued copy");
    if (kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE)
      check_device_range(src, count, "src of a queued copy");
    std::memmove(dst, src, count);
    const DeviceFacts facts = the_device().facts();
    Engine engine = Engine::DeviceLocal;
    double duration_us = transfer_us(count, facts.device_copy_gbs);
    if (kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_HOST) {
      engine = kind == ACL_MEMCPY_HOST_TO_DEVICE ? Engine::HostToDevice : Engine::DeviceToHost;
      duration_us = transfer_us(count, facts.host_link_gbs);
    } else if (kind == ACL_MEMCPY_HOST_TO_HOST) {
      return ready_us;  // no device work
    }
    const double start_us = the_device().timeline.place(engine, ready_us, duration_us);
    if (engine != Engine::DeviceLocal && profiler().recording())
      profiler().record_copy(stream_id,
                             engine == Engine::HostToDevice ? msprof::CopyDirection::HostToDevice
                                                            : msprof::CopyDirection::DeviceToHost,
                             static_cast<std::int64_t>(count), start_us, duration_us);
    return start_us + duration_us;
  };
}

Stream::Work memset_work(void* pointer, int32_t value, size_t count) {
  return [=](double ready_us) {
    check_device_range(pointer, count, "devPtr of a queued memset");
    std::memset(pointer, value, count);
    const double duration_us = transfer_us(count, the_device().facts().device_copy_gbs);
    return the_device().timeline.place(Engine::DeviceLocal, ready_us, duration_us) + duration_us;
  };
}

// aclrtMalloc and aclrtMallocCached; `policy` is the caller's value (c_enum_value).
void allocate_device(void** devPtr, size_t size, long long policy) {
  if (devPtr == nullptr) fail(ACL_ERROR_INVALID_PARAM, "devPtr is null");
  if ((policy & 0xff) > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
    fail(ACL_ERROR_INVALID_PARAM, "policy " + std::to_string(policy) + " is not an aclrtMemMallocPolicy");
  (void)current_context();
  *devPtr = memory().allocate(size, MemoryKind::Device, the_device().facts().memory_bytes);
}

void check_memset(void* devPtr, size_t maxCount, size_t count) {
  if (count > maxCount)
    fail(ACL_ERROR_INVALID_PARAM,
         "count (" + std::to_string(count) + ") is larger than maxCount (" + std::to_string(maxCount) + ")");
  check_device_range(devPtr, count, "devPtr");
}

}  // namespace
}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return api_call(__func__, [&] { allocate_device(devPtr, size, c_enum_value(policy)); });
}

// The simulated device has no cache to bypass: the same allocation. The policy is passed on as the
// caller's number: passing the enum itself would read it as the enum (undefined when a C caller gave
// a value outside it), which c_enum_value exists to avoid.
aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return api_call(__func__, [&] { allocate_device(devPtr, size, c_enum_value(policy)); });
}

aclError aclrtFree(void* devPtr) {
  return api_call(__func__, [&] { memory().release(devPtr, MemoryKind::Device); });
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return api_call(__func__, [&] {
    if (hostPtr == nullptr) fail(ACL_ERROR_INVALID_PARAM, "hostPtr is null");
    (void)current_context();
    *hostPtr = memory().allocate(size, MemoryKind::Host, 0);
  });
}

aclError aclrtFreeHost(void* hostPtr) {
  return api_call(__func__, [&] { memory().release(hostPtr, MemoryKind::Host); });
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  return api_call(__func__, [&] {
    check_memset(devPtr, maxCount, count);
    run_synchronously(*current_context()->default_stream, memset_work(devPtr, value, count));
  });
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  return api_call(__func__, [&] {
    check_memset(devPtr, maxCount, count);
    stream_of(stream)->enqueue(memset_work(devPtr, value, count), host_now_us());
  });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  return api_call(__func__, [&] {
    const aclrtMemcpyKind checked = checked_kind(dst, destMax, src, count, c_enum_value(kind));
    if (count == 0) return;
    Stream& stream = *current_context()->default_stream;
    run_synchronously(stream, copy_work(dst, src, count, checked, stream.id()));
  });
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  return api_call(__func__, [&] {
    const aclrtMemcpyKind checked = checked_kind(dst, destMax, src, count, c_enum_value(kind));
    std::shared_ptr<Stream> target = stream_of(stream);
    if (count == 0) return;
    target->enqueue(copy_work(dst, src, count, checked, target->id()), host_now_us());
  });
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  return api_call(__func__, [&] {
    if (free == nullptr || total == nullptr) fail(ACL_ERROR_INVALID_PARAM, "free or total is null");
    const long long attr_value = c_enum_value(attr);
    if (attr_value < ACL_DDR_MEM || attr_value > ACL_HBM_MEM_P2P_NORMAL)
      fail(ACL_ERROR_INVALID_PARAM, "attr " + std::to_string(attr_value) + " is not an aclrtMemAttr");
    (void)current_context();
    const std::int64_t capacity = the_device().facts().memory_bytes;
    *total = static_cast<size_t>(capacity);
    *free = static_cast<size_t>(std::max<std::int64_t>(0, capacity - memory().device_bytes_in_use()));
  });
}

}  // extern "C"
