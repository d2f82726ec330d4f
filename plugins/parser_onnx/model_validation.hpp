#pragma once

#include <filesystem>
#include <string>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Runs onnx::checker::check_model. Throws EE1003 with the checker's message (which names the
// node when a node is at fault), the model, and `stage` ("" or e.g. "after conversion to opset 11").
void check_model(const onnx::ModelProto& model, const std::filesystem::path& model_path, const std::string& stage);

// Checks what onnx 1.12's checker leaves out and its version converter crashes on: every main
// graph output must be produced by a node, or be a graph input or initializer. Throws EE1003
// naming the output.
void check_outputs_defined(const onnx::ModelProto& model, const std::filesystem::path& model_path);

// Runs ONNX shape inference in strict mode with type checks and data propagation, writing the
// inferred types into the graph's value_info and outputs. Throws EE1005 naming the node.
void infer_shapes(onnx::ModelProto& model, const std::filesystem::path& model_path);

}  // namespace asc::parser_onnx
