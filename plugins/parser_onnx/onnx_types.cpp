#include "onnx_types.hpp"

#include <limits>

#include <asc/sdk/error.hpp>

#include "model_label.hpp"

namespace asc::parser_onnx {

std::optional<DType> dtype_from_onnx(std::int32_t elem_type) {
  switch (elem_type) {
    case onnx::TensorProto::FLOAT: return DType::Float32;
    case onnx::TensorProto::FLOAT16: return DType::Float16;
    case onnx::TensorProto::BFLOAT16: return DType::BFloat16;
    case onnx::TensorProto::DOUBLE: return DType::Float64;
    case onnx::TensorProto::INT8: return DType::Int8;
    case onnx::TensorProto::UINT8: return DType::UInt8;
    case onnx::TensorProto::INT16: return DType::Int16;
    case onnx::TensorProto::UINT16: return DType::UInt16;
    case onnx::TensorProto::INT32: return DType::Int32;
    case onnx::TensorProto::UINT32: return DType::UInt32;
    case onnx::TensorProto::INT64: return DType::Int64;
    case onnx::TensorProto::UINT64: return DType::UInt64;
    case onnx::TensorProto::BOOL: return DType::Bool;
    default: return std::nullopt;
  }
}

std::string onnx_type_name(std::int32_t elem_type) {
  if (onnx::TensorProto::DataType_IsValid(elem_type))
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(elem_type));
  return "unknown type " + std::to_string(elem_type);
}

std::size_t element_count(const onnx::TensorProto& tensor, const std::string& label,
                          const std::filesystem::path& model) {
  std::size_t count = 1;
  for (const std::int64_t dim : tensor.dims()) {
    if (dim < 0)
      throw Error(ErrorCode::ModelCorrupt,
                  model_label(model) + ": " + label + " has negative dimension " + std::to_string(dim));
    const auto size = static_cast<std::size_t>(dim);
    // Keeps count * 8 bytes (the widest element) representable.
    if (size != 0 && count > std::numeric_limits<std::size_t>::max() / 8 / size)
      throw Error(ErrorCode::ModelCorrupt, model_label(model) + ": " + label + " has an impossibly large shape");
    count *= size;
  }
  return count;
}

ValueInfo value_info_from_proto(const onnx::ValueInfoProto& proto) {
  ValueInfo info;
  info.name = proto.name();
  if (!proto.type().has_tensor_type()) return info;
  const auto& tensor_type = proto.type().tensor_type();
  info.dtype = dtype_from_onnx(tensor_type.elem_type()).value_or(DType::Undefined);
  if (!tensor_type.has_shape()) return info;
  std::vector<Dim> dims;
  for (const auto& dim : tensor_type.shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) dims.emplace_back(dim.dim_value());
    else if (dim.has_dim_param() && !dim.dim_param().empty()) dims.push_back(Dim::symbolic(dim.dim_param()));
    else dims.emplace_back();
  }
  info.shape = std::move(dims);
  return info;
}

}  // namespace asc::parser_onnx
