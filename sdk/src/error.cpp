#include "asc/sdk/error.hpp"

#include <array>
#include <cstdio>

namespace asc {
namespace {

struct CodeInfo {
  ErrorCode code;
  std::string_view summary;
};

// Numeric order; all_error_codes() and the summaries both come from this table.
constexpr std::array kCodes{
    CodeInfo{ErrorCode::ModelNotFound, "model file not found or unreadable"},
    CodeInfo{ErrorCode::ModelCorrupt, "model file is corrupt"},
    CodeInfo{ErrorCode::ModelCheckFailed, "model check failed"},
    CodeInfo{ErrorCode::OpsetUnsupported, "opset version not supported"},
    CodeInfo{ErrorCode::ShapeInferenceFailed, "shape inference failed"},
    CodeInfo{ErrorCode::ExternalDataRefused, "external data location refused"},
    CodeInfo{ErrorCode::ExternalDataInvalid, "external data invalid"},
    CodeInfo{ErrorCode::FrameworkUnsupported, "framework not supported"},
    CodeInfo{ErrorCode::InputShapeInvalid, "input shape invalid"},
    CodeInfo{ErrorCode::UnsupportedOperator, "unsupported operator"},
    CodeInfo{ErrorCode::OperatorDtypeUnsupported, "operator does not support this data type"},
    CodeInfo{ErrorCode::InvalidOperator, "invalid operator"},
    CodeInfo{ErrorCode::TbeExpressionInvalid, "TBE expression invalid"},
    CodeInfo{ErrorCode::TbeScheduleInvalid, "TBE schedule does not fit"},
    CodeInfo{ErrorCode::MemoryAllocationFailed, "memory allocation failed"},
    CodeInfo{ErrorCode::FileNotFound, "file not found"},
    CodeInfo{ErrorCode::FileReadFailed, "file read failed"},
    CodeInfo{ErrorCode::FileWriteFailed, "file write failed"},
    CodeInfo{ErrorCode::FileFormatInvalid, "file format invalid"},
    CodeInfo{ErrorCode::ConfigSyntax, "configuration syntax error"},
    CodeInfo{ErrorCode::ConfigUnknownKey, "unknown configuration key"},
    CodeInfo{ErrorCode::ConfigWrongType, "configuration value has the wrong type"},
    CodeInfo{ErrorCode::ConfigMissingKey, "required configuration key missing"},
    CodeInfo{ErrorCode::ConfigUnknownStage, "unknown pipeline stage"},
    CodeInfo{ErrorCode::ConfigUnknownVariable, "unknown pipeline variable"},
    CodeInfo{ErrorCode::ConfigBadValue, "configuration value not allowed"},
    CodeInfo{ErrorCode::UsageError, "invalid command line"},
    CodeInfo{ErrorCode::PluginLoadFailed, "plugin could not be loaded"},
    CodeInfo{ErrorCode::PluginNoEntryPoint, "plugin has no entry point"},
    CodeInfo{ErrorCode::PluginSdkMismatch, "plugin built against an incompatible SDK version"},
    CodeInfo{ErrorCode::PluginAbiMismatch, "plugin built with an incompatible C++ ABI"},
    CodeInfo{ErrorCode::PluginRegistrationFailed, "plugin registration failed"},
    CodeInfo{ErrorCode::PluginNotFound, "plugin not found"},
    CodeInfo{ErrorCode::PluginDuplicate, "duplicate plugin registration"},
    CodeInfo{ErrorCode::ValidationShapeMismatch, "validation shape mismatch"},
    CodeInfo{ErrorCode::ValidationDtypeMismatch, "validation data type mismatch"},
    CodeInfo{ErrorCode::ValidationFailed, "precision validation failed"},
    CodeInfo{ErrorCode::ExecutionFailed, "execution failed"},
    CodeInfo{ErrorCode::InputMissing, "input missing"},
    CodeInfo{ErrorCode::InputMismatch, "input does not match"},
    CodeInfo{ErrorCode::Internal, "internal error"},
};

constexpr std::array<ErrorCode, kCodes.size()> make_code_list() {
  std::array<ErrorCode, kCodes.size()> codes{};
  for (std::size_t i = 0; i < kCodes.size(); ++i) codes[i] = kCodes[i].code;
  return codes;
}
constexpr auto kCodeList = make_code_list();

std::string format_what(ErrorCode code, const std::string& message) {
  return error_code_id(code) + " " + std::string(error_code_summary(code)) + ": " + message;
}

}  // namespace

std::string error_code_id(ErrorCode code) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "EE%04d", static_cast<int>(code));
  return buffer;
}

std::string_view error_code_summary(ErrorCode code) {
  for (const auto& info : kCodes)
    if (info.code == code) return info.summary;
  return "unknown error";
}

std::span<const ErrorCode> all_error_codes() { return kCodeList; }

int exit_code_for(ErrorCode code) { return 10 + static_cast<int>(code) / 1000; }

Error::Error(ErrorCode code, std::string message)
    : std::runtime_error(format_what(code, message)), code_(code), message_(std::move(message)) {}

Error::~Error() = default;

}  // namespace asc
