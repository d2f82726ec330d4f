#pragma once

#include <filesystem>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Reads every tensor stored as ONNX external data into its raw_data and marks it as stored in
// the model, so that the checker, shape inference and conversion never open files themselves.
//
// A location must be a relative path that stays inside the model's directory: absolute paths,
// any ".." component, and paths whose canonical form (symlinks resolved) leaves the directory
// are refused with EE1006 naming the tensor and the location (CVE-2022-25882). A missing or
// non-regular file, an offset/length beyond the file, a byte count that does not fit the
// tensor, or a malformed entry is EE1007.
void load_external_data(onnx::ModelProto& model, const std::filesystem::path& model_path);

}  // namespace asc::parser_onnx
