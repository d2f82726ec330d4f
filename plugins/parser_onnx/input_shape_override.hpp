#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Fixes graph input dims before shape inference (ATC's --input_shape). A dim of -1 keeps the
// model's symbol, or makes a static dim unknown. Throws EE1009 naming the model and the input
// when a name is not a (non-initializer) graph input, the input is not a tensor, or the rank
// differs from the model's.
//
// Shapes the model declares downstream (value_info, output dims) were derived from the old input
// shapes and would contradict inference, so once an input changes they are dropped (element
// types and output ranks stay) and shape inference recomputes them.
void override_input_shapes(onnx::GraphProto& graph, const std::map<std::string, std::vector<std::int64_t>>& shapes,
                           const std::filesystem::path& model_path);

}  // namespace asc::parser_onnx
