// Every exported ACL function runs its body through api_call(): a failure inside is an
// AclFailure (a CANN error code and a message for aclGetRecentErrMsg), an asc::Error from the
// SDK (mapped to the nearest CANN code), or anything else (ACL_ERROR_INTERNAL_ERROR); none
// escapes into the C caller. api_call also keeps the calling thread's simulated host clock
// (host_clock.hpp): time spent between API calls counts, time inside them does not.
#pragma once

#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "acl/acl_base.h"

namespace asc::acl {

class AclFailure : public std::exception {
 public:
  AclFailure(aclError code, std::string message) : code_(code), message_(std::move(message)) {}
  aclError code() const noexcept { return code_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  aclError code_;
  std::string message_;
};

[[noreturn]] inline void fail(aclError code, std::string message) { throw AclFailure(code, std::move(message)); }

// Records `message` as the calling thread's recent error (error_message.cpp).
void record_error(const char* api, aclError code, const std::string& message);
// The code and message for the exception being handled (call inside a catch block).
std::pair<aclError, std::string> current_failure();

// The value a C caller passed for an enum parameter. C's enums are ints, so any int may arrive; in
// C++ reading an enum object whose value lies outside its enumerators' range is undefined (UBSan's
// -fsanitize=enum reported `kind` 9 of aclrtMemcpy), so the API reads the bytes as the underlying
// type and checks that number before it uses the parameter as the enum.
template <class Enum> long long c_enum_value(const Enum& parameter) {
  std::underlying_type_t<Enum> bits;
  std::memcpy(&bits, &parameter, sizeof bits);
  return static_cast<long long>(bits);
}

// Throws ACL_ERROR_UNINITIALIZE unless aclInit has succeeded (and aclFinalize not yet run).
void require_initialized(const char* api);

// Marks the calling thread inside an API call for the simulated host clock (host_clock.cpp).
class ApiScope {
 public:
  ApiScope();
  ~ApiScope();
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;
};

// Runs `body` (returning void) for API `api`; returns ACL_SUCCESS or the failure's code.
template <class Body> aclError api_call(const char* api, Body&& body, bool needs_init = true) {
  ApiScope scope;
  try {
    if (needs_init) require_initialized(api);
    body();
    return ACL_SUCCESS;
  } catch (...) {
    auto [code, message] = current_failure();
    record_error(api, code, message);
    return code;
  }
}

// For functions that return a value instead of an aclError: `fallback` on failure.
template <class T, class Body> T api_value(const char* api, T fallback, Body&& body, bool needs_init = true) {
  ApiScope scope;
  try {
    if (needs_init) require_initialized(api);
    return body();
  } catch (...) {
    auto [code, message] = current_failure();
    record_error(api, code, message);
    return fallback;
  }
}

}  // namespace asc::acl
