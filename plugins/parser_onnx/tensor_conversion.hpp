#pragma once

#include <filesystem>
#include <string>

#include <asc/sdk/tensor.hpp>
#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Converts a TensorProto (external data already loaded) to an asc::Tensor, from raw_data
// (little-endian) or the typed repeated fields. raw_data is moved out of `proto`, not copied: the
// tensor's buffer borrows the string. Throws EE2002 naming the tensor (`label`) and the model for
// element types asc has no DType for, and EE1002 when the data does not fit the shape.
Tensor tensor_from_proto(onnx::TensorProto& proto, const std::string& label, const std::filesystem::path& model);

}  // namespace asc::parser_onnx
