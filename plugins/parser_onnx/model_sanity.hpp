// Checks made before a model reaches ONNX's shape inference and version converter. Those trust
// what the checker leaves unchecked: a stride of 0 divides by zero in convPoolShapeInference
// (SIGFPE), a dimension of -2^63 overflows inside an operator's inference (SIGSEGV). Each
// refusal is a coded error naming the model, the node or value, and the attribute or dimension.
#pragma once

#include <filesystem>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// EE2003 for a node attribute outside what ONNX allows (strides, dilations or kernel_shape
// below 1, negative pads, duplicate axes), EE1003 for a graph without outputs, a dimension below
// -1, a static shape whose element count overflows or a name that is not UTF-8, EE1004 for an opset import below 1. A dimension of -1 (some exporters'
// spelling of "unknown") becomes an unknown dimension, as the graph conversion reads it anyway.
// EE2003 for a convolution weight of rank below 3; a convolution without dilations or
// kernel_shape gets its default dilations written out (model_sanity.cpp says why).
void check_before_shape_inference(onnx::ModelProto& model, const std::filesystem::path& model_path);

}  // namespace asc::parser_onnx
