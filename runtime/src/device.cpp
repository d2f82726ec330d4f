// Devices, contexts and streams: the runtime objects and their C API.
#include "device.hpp"

#include <algorithm>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "asc/sdk/backend.hpp"
#include "host_clock.hpp"

namespace asc::acl {
namespace {

std::mutex set_device_mutex;
int set_device_count = 0;                 // aclrtSetDevice calls not yet reset
std::shared_ptr<Context> default_context;  // device 0's, while it is set

thread_local std::weak_ptr<Context> thread_context;

std::shared_ptr<Context> make_context(bool is_default) {
  auto context = std::make_shared<Context>();
  context->is_default = is_default;
  context->default_stream = std::make_shared<Stream>();
  return context;
}

}  // namespace

DeviceFacts Device::facts() {
  std::lock_guard lock(mutex_);
  return facts_;
}

DeviceInfo Device::description() {
  std::lock_guard lock(mutex_);
  if (facts_.from_model) return description_;
  DeviceInfo fallback;
  fallback.soc_version = facts_.soc_version;
  fallback.memory_bytes = facts_.memory_bytes;
  fallback.host_link_gbs = facts_.host_link_gbs;
  return fallback;
}

void Device::learn(const DeviceInfo& info) {
  std::lock_guard lock(mutex_);
  if (facts_.from_model) return;
  facts_.from_model = true;
  description_ = info;
  if (!info.soc_version.empty()) facts_.soc_version = info.soc_version;
  if (info.memory_bytes > 0) facts_.memory_bytes = info.memory_bytes;
  if (info.host_link_gbs > 0) facts_.host_link_gbs = info.host_link_gbs;
}

void Device::reset() {
  timeline.clear();
  std::lock_guard lock(mutex_);
  facts_ = DeviceFacts{};
  description_ = DeviceInfo{};
}

Device& the_device() {
  static Device device;
  return device;
}

void check_device_id(std::int32_t device_id) {
  if (device_id < 0 || device_id >= static_cast<std::int32_t>(kDeviceCount))
    fail(ACL_ERROR_RT_INVALID_DEVICEID,
         "device id " + std::to_string(device_id) + " does not exist: the simulator has " +
             std::to_string(kDeviceCount) + " device (id 0)");
}

HandleTable<Context>& contexts() {
  static HandleTable<Context> table;
  return table;
}

HandleTable<Stream>& streams() {
  static HandleTable<Stream> table;
  return table;
}

std::shared_ptr<Context> current_context() {
  std::shared_ptr<Context> context = thread_context.lock();
  if (context == nullptr)
    fail(ACL_ERROR_RT_CONTEXT_NULL, "the calling thread has no current context: call aclrtSetDevice or "
                                    "aclrtCreateContext (or aclrtSetCurrentContext) first");
  return context;
}

void set_current_context(const std::shared_ptr<Context>& context) { thread_context = context; }

std::shared_ptr<Stream> stream_of(const void* handle) {
  if (handle == nullptr) return current_context()->default_stream;
  std::shared_ptr<Stream> stream = streams().find(handle);
  if (stream == nullptr)
    fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "stream handle is not a live stream (never created, or destroyed)");
  return stream;
}

std::vector<std::shared_ptr<Stream>> all_streams() {
  std::vector<std::shared_ptr<Stream>> all = streams().all();
  for (const auto& context : contexts().all()) all.push_back(context->default_stream);
  std::lock_guard lock(set_device_mutex);
  if (default_context) all.push_back(default_context->default_stream);
  return all;
}

void destroy_streams_of(Context& context) {
  for (const void* handle : context.streams) streams().remove(handle);
  context.streams.clear();
}

void reset_devices() {
  for (const auto& context : contexts().take_all()) destroy_streams_of(*context);
  streams().take_all();  // the streams go (each runs what it has queued first)
  std::lock_guard lock(set_device_mutex);
  if (default_context) destroy_streams_of(*default_context);
  default_context.reset();
  set_device_count = 0;
  thread_context.reset();
}

void run_synchronously(Stream& stream, Stream::Work work) {
  stream.enqueue(std::move(work), host_now_us());
  host_wait_until(stream.synchronize());
}

}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  return api_call(__func__, [&] {
    check_device_id(deviceId);
    std::lock_guard lock(set_device_mutex);
    if (!default_context) default_context = make_context(true);
    ++set_device_count;
    set_current_context(default_context);
  });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return api_call(__func__, [&] {
    check_device_id(deviceId);
    std::shared_ptr<Context> released;
    {
      std::lock_guard lock(set_device_mutex);
      if (set_device_count == 0)
        fail(ACL_ERROR_RT_INVALID_DEVICEID, "device " + std::to_string(deviceId) + " is not set (aclrtSetDevice)");
      if (--set_device_count > 0) return;
      released = std::move(default_context);
    }
    // Its work finishes first; then the default context and the streams created in it go.
    host_wait_until(released->default_stream->synchronize());
    destroy_streams_of(*released);
    if (thread_context.lock() == released) thread_context.reset();
  });
}

aclError aclrtGetDevice(int32_t* deviceId) {
  return api_call(__func__, [&] {
    if (deviceId == nullptr) fail(ACL_ERROR_INVALID_PARAM, "deviceId is null");
    *deviceId = current_context()->device_id;
  });
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  return api_call(__func__, [&] {
    if (count == nullptr) fail(ACL_ERROR_INVALID_PARAM, "count is null");
    *count = kDeviceCount;
  });
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  return api_call(__func__, [&] {
    if (runMode == nullptr) fail(ACL_ERROR_INVALID_PARAM, "runMode is null");
    *runMode = ACL_HOST;  // the program runs on the host, as with a PCIe card
  });
}

const char* aclrtGetSocName(void) {
  static thread_local std::string name;
  return api_value<const char*>(__func__, nullptr, [&] {
    name = the_device().facts().soc_version;
    return name.c_str();
  });
}

aclError aclrtSynchronizeDevice(void) {
  return api_call(__func__, [&] {
    (void)current_context();
    double end_us = 0;
    std::optional<AclFailure> first;
    for (const auto& stream : all_streams()) {
      try {
        end_us = std::max(end_us, stream->synchronize());
      } catch (const AclFailure& failure) {
        if (!first) first = failure;
      }
    }
    host_wait_until(end_us);
    if (first) throw *first;
  });
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return api_call(__func__, [&] {
    if (context == nullptr) fail(ACL_ERROR_INVALID_PARAM, "context is null");
    check_device_id(deviceId);
    std::shared_ptr<Context> created = make_context(false);
    created->device_id = deviceId;
    *context = contexts().add(created);
    set_current_context(created);
  });
}

aclError aclrtDestroyContext(aclrtContext context) {
  return api_call(__func__, [&] {
    if (context == nullptr) fail(ACL_ERROR_INVALID_PARAM, "context is null");
    std::shared_ptr<Context> destroyed = contexts().remove(context);
    if (destroyed == nullptr)
      fail(ACL_ERROR_INVALID_RESOURCE_HANDLE,
           "context is not one aclrtCreateContext made, or was destroyed already (the default context goes with "
           "aclrtResetDevice)");
    host_wait_until(destroyed->default_stream->synchronize());
    destroy_streams_of(*destroyed);
    if (thread_context.lock() == destroyed) thread_context.reset();
  });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  return api_call(__func__, [&] {
    if (context == nullptr) fail(ACL_ERROR_INVALID_PARAM, "context is null");
    std::shared_ptr<Context> found = contexts().find(context);
    if (found == nullptr) {
      std::lock_guard lock(set_device_mutex);
      if (default_context.get() == context) found = default_context;
    }
    if (found == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "context is not a live context");
    set_current_context(found);
  });
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  return api_call(__func__, [&] {
    if (context == nullptr) fail(ACL_ERROR_INVALID_PARAM, "context is null");
    *context = current_context().get();
  });
}

aclError aclrtCreateStream(aclrtStream* stream) {
  return api_call(__func__, [&] {
    if (stream == nullptr) fail(ACL_ERROR_INVALID_PARAM, "stream is null");
    std::shared_ptr<Context> context = current_context();
    void* handle = streams().add(std::make_shared<Stream>());
    std::lock_guard lock(set_device_mutex);
    context->streams.push_back(handle);
    *stream = handle;
  });
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t /*priority*/, uint32_t /*flag*/) {
  return aclrtCreateStream(stream);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return api_call(__func__, [&] {
    if (stream == nullptr) fail(ACL_ERROR_INVALID_PARAM, "stream is null (the default stream cannot be destroyed)");
    std::shared_ptr<Stream> destroyed = streams().remove(stream);
    if (destroyed == nullptr) fail(ACL_ERROR_INVALID_RESOURCE_HANDLE, "stream is not a live stream");
    {
      std::lock_guard lock(set_device_mutex);
      for (const auto& context : contexts().all()) std::erase(context->streams, static_cast<const void*>(stream));
      if (default_context) std::erase(default_context->streams, static_cast<const void*>(stream));
    }
    // Destroying waits for the stream's work (the worker drains its queue).
    try {
      host_wait_until(destroyed->synchronize());
    } catch (const AclFailure&) {
      // An earlier asynchronous failure belongs to a synchronize that will not come; the stream goes anyway.
    }
  });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return api_call(__func__, [&] { host_wait_until(stream_of(stream)->synchronize()); });
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t /*timeout*/) {
  return aclrtSynchronizeStream(stream);
}

}  // extern "C"
