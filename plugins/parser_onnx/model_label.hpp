#pragma once

#include <filesystem>
#include <string>

namespace asc::parser_onnx {

// How error messages name the model file: "model 'path/to/net.onnx'".
inline std::string model_label(const std::filesystem::path& model) { return "model '" + model.string() + "'"; }

}  // namespace asc::parser_onnx
