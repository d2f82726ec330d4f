#include "asc/sdk/dtype.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

std::string to_lower(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

// Spellings accepted by parse_dtype(), lower case. "int" is C's int (32 bits), as ATC reads it.
constexpr std::array<std::pair<std::string_view, DType>, 48> kAliases{{
    {"float32", DType::Float32},   {"fp32", DType::Float32},     {"float", DType::Float32},
    {"f4", DType::Float32},        {"single", DType::Float32},   {"float16", DType::Float16},
    {"fp16", DType::Float16},      {"half", DType::Float16},     {"f2", DType::Float16},
    {"bfloat16", DType::BFloat16}, {"bf16", DType::BFloat16},    {"float64", DType::Float64},
    {"fp64", DType::Float64},      {"double", DType::Float64},   {"f8", DType::Float64},
    {"int8", DType::Int8},         {"i1", DType::Int8},          {"char", DType::Int8},
    {"uint8", DType::UInt8},       {"u1", DType::UInt8},         {"byte", DType::UInt8},
    {"int16", DType::Int16},       {"i2", DType::Int16},         {"short", DType::Int16},
    {"uint16", DType::UInt16},     {"u2", DType::UInt16},        {"ushort", DType::UInt16},
    {"int32", DType::Int32},       {"i4", DType::Int32},         {"int", DType::Int32},
    {"uint32", DType::UInt32},     {"u4", DType::UInt32},        {"uint", DType::UInt32},
    {"int64", DType::Int64},       {"i8", DType::Int64},         {"long", DType::Int64},
    {"uint64", DType::UInt64},     {"u8", DType::UInt64},        {"ulong", DType::UInt64},
    {"bool", DType::Bool},         {"b1", DType::Bool},          {"?", DType::Bool},
    {"boolean", DType::Bool},      {"bool_", DType::Bool},       {"dt_float", DType::Float32},
    {"dt_float16", DType::Float16}, {"dt_int32", DType::Int32},  {"dt_int64", DType::Int64},
}};

}  // namespace

std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::Undefined: return 0;
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8: return 1;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Int16:
    case DType::UInt16: return 2;
    case DType::Float32:
    case DType::Int32:
    case DType::UInt32: return 4;
    case DType::Float64:
    case DType::Int64:
    case DType::UInt64: return 8;
  }
  return 0;
}

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Undefined: return "undefined";
    case DType::Float32: return "float32";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Float64: return "float64";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Int16: return "int16";
    case DType::UInt16: return "uint16";
    case DType::Int32: return "int32";
    case DType::UInt32: return "uint32";
    case DType::Int64: return "int64";
    case DType::UInt64: return "uint64";
    case DType::Bool: return "bool";
  }
  return "undefined";
}

std::optional<DType> parse_dtype(std::string_view text) {
  const std::string lower = to_lower(text);
  for (const auto& [alias, dtype] : kAliases)
    if (alias == lower) return dtype;
  return std::nullopt;
}

bool is_floating(DType dtype) {
  return dtype == DType::Float32 || dtype == DType::Float16 || dtype == DType::BFloat16 ||
         dtype == DType::Float64;
}

bool is_integral(DType dtype) {
  switch (dtype) {
    case DType::Int8:
    case DType::UInt8:
    case DType::Int16:
    case DType::UInt16:
    case DType::Int32:
    case DType::UInt32:
    case DType::Int64:
    case DType::UInt64: return true;
    default: return false;
  }
}

bool is_signed(DType dtype) {
  return is_floating(dtype) || dtype == DType::Int8 || dtype == DType::Int16 || dtype == DType::Int32 ||
         dtype == DType::Int64;
}

void throw_unsupported_dtype(DType dtype, std::string_view where) {
  throw Error(ErrorCode::InputMismatch,
              std::string(where) + ": unsupported data type " + std::string(dtype_name(dtype)));
}

}  // namespace asc
