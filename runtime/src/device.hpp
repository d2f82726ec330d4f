// The one simulated device (id 0), its contexts and streams, and each thread's current context.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "asc/sdk/backend.hpp"
#include "handle_table.hpp"
#include "stream.hpp"
#include "timeline.hpp"

namespace asc::acl {

inline constexpr std::uint32_t kDeviceCount = 1;

// What the runtime knows of the device: from the first loaded model's Executable::device(), and
// until then (or where that leaves a field empty) the fallbacks documented in docs/acl.md.
struct DeviceFacts {
  std::string soc_version = "Ascend310";
  std::int64_t memory_bytes = std::int64_t{8} << 30;
  double host_link_gbs = 8;       // PCIe 3.0 x8, the Ascend310 card's link
  double device_copy_gbs = 50;    // on-device copies and memsets (assumed)
  bool from_model = false;
};

struct Context {
  int device_id = 0;
  bool is_default = false;
  std::shared_ptr<Stream> default_stream;
  std::vector<const void*> streams;  // handles of the streams created in it
};

class Device {
 public:
  Timeline timeline;

  DeviceFacts facts();
  // The first model's device description for profiles (until then: the fallback SoC's name).
  DeviceInfo description();
  // Adopts the first model's device description (later models keep it).
  void learn(const DeviceInfo& info);
  void reset();  // aclFinalize

 private:
  std::mutex mutex_;
  DeviceFacts facts_;
  DeviceInfo description_;
};

Device& the_device();

// Throws ACL_ERROR_RT_INVALID_DEVICEID unless `device_id` names the device.
void check_device_id(std::int32_t device_id);

HandleTable<Context>& contexts();
HandleTable<Stream>& streams();

// The calling thread's current context; ACL_ERROR_RT_CONTEXT_NULL when none (aclrtSetDevice or
// aclrtCreateContext first).
std::shared_ptr<Context> current_context();
void set_current_context(const std::shared_ptr<Context>& context);
// The stream a handle names: nullptr is the current context's default stream; an unknown
// handle is ACL_ERROR_INVALID_RESOURCE_HANDLE.
std::shared_ptr<Stream> stream_of(const void* handle);

// Every stream alive (the default ones included), for aclrtSynchronizeDevice and profiling.
std::vector<std::shared_ptr<Stream>> all_streams();
// Destroys a context's streams (after running their work).
void destroy_streams_of(Context& context);
// aclFinalize: every context and stream goes; the set-device count returns to zero.
void reset_devices();

// Runs `work` on `stream` and waits for it, moving the caller's host clock to its end
// (synchronous API calls: aclrtMemcpy, aclmdlExecute, ...).
void run_synchronously(Stream& stream, Stream::Work work);

}  // namespace asc::acl
