// Coded errors. Every error a user can hit carries one of these codes; docs/errors.md lists them
// with what to do (a test keeps that page and this enum in step).
//
// Classes follow ATC's: EE1xxx model parsing, EE2xxx unsupported operators, EE3xxx memory; the
// project adds EE4xxx file I/O, EE5xxx configuration (pipelines, command lines), EE6xxx plugins,
// EE7xxx precision validation, EE8xxx execution, EE9xxx internal errors.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace asc {

enum class ErrorCode : int {
  // EE1xxx: model parsing
  ModelNotFound = 1001,         // model file missing or unreadable
  ModelCorrupt = 1002,          // not a valid model file (truncated, not protobuf, ...)
  ModelCheckFailed = 1003,      // the ONNX checker rejected the model
  OpsetUnsupported = 1004,      // opset outside the supported range, conversion impossible
  ShapeInferenceFailed = 1005,  // shape inference failed on a node
  ExternalDataRefused = 1006,   // external data location escapes the model directory
  ExternalDataInvalid = 1007,   // external data file missing, short, or malformed entry
  FrameworkUnsupported = 1008,  // --framework value we do not parse
  InputShapeInvalid = 1009,     // --input_shape / dynamic shape string does not fit the model
  // EE2xxx: operators
  UnsupportedOperator = 2001,   // no kernel registered for (domain, op type, opset)
  OperatorDtypeUnsupported = 2002,  // kernel exists but not for the requested dtype
  InvalidOperator = 2003,       // node's attributes or inputs are invalid for its op
  TbeExpressionInvalid = 2004,  // a TBE DSL expression mixes shapes/dtypes a stage cannot take
  TbeScheduleInvalid = 2005,    // a TBE schedule (auto or manual) does not fit the SoC's buffers
  // EE3xxx: memory
  MemoryAllocationFailed = 3001,  // a plan exceeds device memory
  // EE4xxx: files
  FileNotFound = 4001,
  FileReadFailed = 4002,
  FileWriteFailed = 4003,
  FileFormatInvalid = 4004,     // a data file (.npy, .bin, .om, ...) is malformed
  // EE5xxx: configuration
  ConfigSyntax = 5001,          // YAML/JSON syntax error
  ConfigUnknownKey = 5002,
  ConfigWrongType = 5003,
  ConfigMissingKey = 5004,
  ConfigUnknownStage = 5005,
  ConfigUnknownVariable = 5006,
  ConfigBadValue = 5007,        // value of the right type but not allowed
  UsageError = 5008,            // bad command line
  // EE6xxx: plugins
  PluginLoadFailed = 6001,
  PluginNoEntryPoint = 6002,
  PluginSdkMismatch = 6003,
  PluginAbiMismatch = 6004,
  PluginRegistrationFailed = 6005,
  PluginNotFound = 6006,
  PluginDuplicate = 6007,
  // EE7xxx: validation
  ValidationShapeMismatch = 7001,
  ValidationDtypeMismatch = 7002,
  ValidationFailed = 7003,      // precision thresholds exceeded
  // EE8xxx: execution
  ExecutionFailed = 8001,       // a kernel failed at run time
  InputMissing = 8002,          // a graph input was not provided
  InputMismatch = 8003,         // provided input has the wrong dtype or shape
  // EE9xxx: internal
  Internal = 9001,              // a bug: please report it
};

// "EE1001"
std::string error_code_id(ErrorCode code);
// One-line summary, e.g. "model file not found or unreadable".
std::string_view error_code_summary(ErrorCode code);
// Every code, in numeric order (for documentation and tests).
std::span<const ErrorCode> all_error_codes();
// Process exit code for a coded error: 10 + the class digit (EE1xxx -> 11 ... EE9xxx -> 19).
int exit_code_for(ErrorCode code);

// The exception type of the SDK. what() reads "EE1002 model file is corrupt: <message>".
// The message names the file, node or field involved.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string message);
  Error(const Error&) = default;
  Error& operator=(const Error&) = default;
  // Out of line on purpose: it anchors the vtable in the SDK library, so an Error thrown by a
  // plugin stays valid after the plugin library is unloaded.
  ~Error() override;
  ErrorCode code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }

 private:
  ErrorCode code_;
  std::string message_;
};

}  // namespace asc
