// Element types of tensors and the helpers to dispatch on them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <Eigen/Core>

namespace asc {

// 16-bit float types. Eigen's implementations use F16C / hardware conversions where available.
using float16 = Eigen::half;
using bfloat16 = Eigen::bfloat16;

enum class DType : std::uint8_t {
  Undefined,
  Float32,
  Float16,
  BFloat16,
  Float64,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Bool,
};

// Bytes per element; 0 for Undefined.
std::size_t dtype_size(DType dtype);
// Lower-case name as the CLI and reports spell it: "float32", "float16", "bool", ...
std::string_view dtype_name(DType dtype);
// Accepts dtype_name() spellings and the ATC/numpy aliases ("fp16", "FP32", "half", "int", ...).
std::optional<DType> parse_dtype(std::string_view text);
bool is_floating(DType dtype);
bool is_integral(DType dtype);  // signed or unsigned integers, not bool
bool is_signed(DType dtype);

template <class T> struct TypeTag { using type = T; };

template <class T> constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return DType::Float32;
  else if constexpr (std::is_same_v<T, float16>) return DType::Float16;
  else if constexpr (std::is_same_v<T, bfloat16>) return DType::BFloat16;
  else if constexpr (std::is_same_v<T, double>) return DType::Float64;
  else if constexpr (std::is_same_v<T, std::int8_t>) return DType::Int8;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return DType::UInt8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return DType::Int16;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return DType::UInt16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return DType::Int32;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return DType::UInt32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return DType::Int64;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return DType::UInt64;
  else if constexpr (std::is_same_v<T, bool>) return DType::Bool;
  else static_assert(sizeof(T) == 0, "type has no asc::DType");
}

[[noreturn]] void throw_unsupported_dtype(DType dtype, std::string_view where);

// Calls fn(TypeTag<T>{}) with T the C++ type of `dtype`:
//   visit_dtype(t.dtype(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
// Throws asc::Error (EE8003) for Undefined.
template <class Fn> decltype(auto) visit_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::Float32: return fn(TypeTag<float>{});
    case DType::Float16: return fn(TypeTag<float16>{});
    case DType::BFloat16: return fn(TypeTag<bfloat16>{});
    case DType::Float64: return fn(TypeTag<double>{});
    case DType::Int8: return fn(TypeTag<std::int8_t>{});
    case DType::UInt8: return fn(TypeTag<std::uint8_t>{});
    case DType::Int16: return fn(TypeTag<std::int16_t>{});
    case DType::UInt16: return fn(TypeTag<std::uint16_t>{});
    case DType::Int32: return fn(TypeTag<std::int32_t>{});
    case DType::UInt32: return fn(TypeTag<std::uint32_t>{});
    case DType::Int64: return fn(TypeTag<std::int64_t>{});
    case DType::UInt64: return fn(TypeTag<std::uint64_t>{});
    case DType::Bool: return fn(TypeTag<bool>{});
    case DType::Undefined: break;
  }
  throw_unsupported_dtype(dtype, "visit_dtype");
}

}  // namespace asc
