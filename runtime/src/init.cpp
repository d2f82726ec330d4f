// aclInit / aclFinalize / aclrtGetVersion.
#include <atomic>
#include <fstream>
#include <mutex>
#include <optional>

#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "device.hpp"
#include "host_clock.hpp"
#include "memory_registry.hpp"
#include "model.hpp"
#include "profiler.hpp"

namespace asc::acl {

void clear_subscriptions();  // callback.cpp

namespace {

std::mutex init_mutex;
std::atomic<bool> initialized{false};

// The configuration file: JSON ("{}" is enough). Its dump/profiling sections are not read.
void check_config(const char* path) {
  if (path == nullptr || *path == '\0') return;
  std::ifstream file(path);
  if (!file) fail(ACL_ERROR_INVALID_FILE, std::string("cannot open the configuration file ") + path);
  try {
    const nlohmann::json config = nlohmann::json::parse(file);
    if (!config.is_object()) fail(ACL_ERROR_PARSE_FILE, std::string(path) + " is not a JSON object");
  } catch (const nlohmann::json::exception& error) {
    fail(ACL_ERROR_PARSE_FILE, std::string(path) + " is not valid JSON: " + error.what());
  }
}

}  // namespace

void require_initialized(const char* api) {
  if (!initialized.load()) fail(ACL_ERROR_UNINITIALIZE, std::string(api) + " needs aclInit first");
}

}  // namespace asc::acl

using namespace asc::acl;

extern "C" {

aclError aclInit(const char* configPath) {
  return api_call(__func__, [&] {
    std::lock_guard lock(init_mutex);
    if (initialized.load()) fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit was called already (aclFinalize first)");
    check_config(configPath);
    profiler().start_from_environment();  // msprof launched the program
    restart_host_clocks();
    initialized = true;
  }, false);
}

aclError aclFinalize(void) {
  return api_call(__func__, [&] {
    std::lock_guard lock(init_mutex);
    if (!initialized.load()) fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize without a successful aclInit before it");
    for (const auto& stream : all_streams()) {
      try {
        stream->synchronize();
      } catch (const AclFailure&) {
        // Asynchronous failures nobody synchronized for are dropped with their streams.
      }
    }
    // A collection still running (msprof's, or aclprofStart without aclprofStop) is written
    // now; a failure to write it is reported after the rest is released.
    std::optional<AclFailure> profile_failure;
    try {
      profiler().finish();
    } catch (const AclFailure& failure) {
      profile_failure = failure;
    }
    clear_subscriptions();
    reset_devices();
    unload_all_models();
    memory().clear();
    the_device().reset();
    initialized = false;
    if (profile_failure) throw *profile_failure;
  }, false);
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  return api_call(__func__, [&] {
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr)
      fail(ACL_ERROR_INVALID_PARAM, "a version pointer is null");
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
  }, false);
}

}  // extern "C"
