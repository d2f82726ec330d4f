// ONNX TensorProto.DataType codes (onnx.proto) as attributes carry them (Cast's 'to',
// EyeLike's and RandomNormal's 'dtype', ...), for the element types asc has.
#pragma once

#include <cstdint>
#include <optional>

#include <asc/sdk/dtype.hpp>

namespace asc::ops {

inline std::optional<DType> dtype_from_onnx_code(std::int64_t code) {
  switch (code) {
    case 1: return DType::Float32;
    case 2: return DType::UInt8;
    case 3: return DType::Int8;
    case 4: return DType::UInt16;
    case 5: return DType::Int16;
    case 6: return DType::Int32;
    case 7: return DType::Int64;
    case 9: return DType::Bool;
    case 10: return DType::Float16;
    case 11: return DType::Float64;
    case 12: return DType::UInt32;
    case 13: return DType::UInt64;
    case 16: return DType::BFloat16;
    default: return std::nullopt;
  }
}

}  // namespace asc::ops
