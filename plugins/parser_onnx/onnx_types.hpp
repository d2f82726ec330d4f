#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <asc/sdk/graph.hpp>
#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// The asc::DType of an ONNX TensorProto.DataType, or nullopt for types asc has no DType for
// (string, complex, ...).
std::optional<DType> dtype_from_onnx(std::int32_t elem_type);
// "FLOAT", "STRING", ... for messages.
std::string onnx_type_name(std::int32_t elem_type);

// The number of elements of `tensor` from its dims. Throws EE1002 naming the tensor (`label`)
// and the model when a dim is negative or the count overflows.
std::size_t element_count(const onnx::TensorProto& tensor, const std::string& label,
                          const std::filesystem::path& model);

// Type and shape of a value: dim_value -> static Dim, dim_param -> symbolic Dim, neither ->
// unknown Dim. Non-tensor types (sequences, maps, optionals) and element types asc has no DType
// for give DType::Undefined and an unknown rank.
ValueInfo value_info_from_proto(const onnx::ValueInfoProto& proto);

}  // namespace asc::parser_onnx
