#pragma once

#include <filesystem>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Reads and deserializes a model file. Throws EE1001 when the file is missing or unreadable and
// EE1002 when it is not an ONNX model (protobuf rejects it, or it decodes to something with no
// graph or no opset_import, as random or truncated bytes sometimes do).
onnx::ModelProto read_model_file(const std::filesystem::path& model);

}  // namespace asc::parser_onnx
