// aclGetRecentErrMsg and the mapping of exceptions to CANN error codes.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "api_guard.hpp"
#include "asc/sdk/error.hpp"

namespace asc::acl {
namespace {

thread_local std::string recent_message;    // the last failure's message, until read
thread_local std::string returned_message;  // what the last aclGetRecentErrMsg returned (stays valid)
thread_local bool has_recent = false;

// The CANN code nearest to an SDK error's meaning.
aclError code_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::FileNotFound: return ACL_ERROR_INVALID_FILE;
    case ErrorCode::FileReadFailed: return ACL_ERROR_READ_MODEL_FAILURE;
    case ErrorCode::FileFormatInvalid:
    case ErrorCode::ModelCorrupt: return ACL_ERROR_DESERIALIZE_MODEL;
    case ErrorCode::ModelNotFound: return ACL_ERROR_INVALID_FILE;
    case ErrorCode::FileWriteFailed: return ACL_ERROR_WRITE_FILE;
    case ErrorCode::PluginLoadFailed:
    case ErrorCode::PluginNoEntryPoint:
    case ErrorCode::PluginSdkMismatch:
    case ErrorCode::PluginAbiMismatch:
    case ErrorCode::PluginRegistrationFailed:
    case ErrorCode::PluginNotFound:
    case ErrorCode::PluginDuplicate: return ACL_ERROR_OP_LOAD_FAILED;
    case ErrorCode::UnsupportedOperator: return ACL_ERROR_OP_NOT_FOUND;
    case ErrorCode::InputMissing:
    case ErrorCode::InputMismatch: return ACL_ERROR_MODEL_INPUT_NOT_MATCH;
    case ErrorCode::MemoryAllocationFailed: return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case ErrorCode::ExecutionFailed: return ACL_ERROR_GE_FAILURE;
    default: return ACL_ERROR_FAILURE;
  }
}

}  // namespace

std::pair<aclError, std::string> current_failure() {
  try {
    throw;
  } catch (const AclFailure& failure) {
    return {failure.code(), failure.what()};
  } catch (const Error& error) {
    return {code_for(error.code()), error.what()};
  } catch (const std::bad_alloc&) {
    return {ACL_ERROR_BAD_ALLOC, "out of host memory"};
  } catch (const std::exception& error) {
    return {ACL_ERROR_INTERNAL_ERROR, std::string("internal error: ") + error.what()};
  } catch (...) {
    return {ACL_ERROR_INTERNAL_ERROR, "internal error: unknown exception"};
  }
}

void record_error(const char* api, aclError code, const std::string& message) {
  recent_message = std::string(api) + " failed, error code " + std::to_string(code) + ": " + message;
  has_recent = true;
  if (std::getenv("ASC_ACL_LOG_ERRORS") != nullptr) std::fprintf(stderr, "[ERROR] ACL %s\n", recent_message.c_str());
}

}  // namespace asc::acl

extern "C" const char* aclGetRecentErrMsg(void) {
  using namespace asc::acl;
  if (!has_recent) return nullptr;
  returned_message = std::move(recent_message);
  recent_message.clear();
  has_recent = false;
  return returned_message.c_str();
}
