#pragma once

#include <asc/sdk/parser.hpp>

namespace asc::parser_onnx {

// The "onnx" parser. Steps, each in its own file: read the ModelProto (model_file), load external
// data safely (external_data), enforce the opset range and convert old opsets to 11
// (opset_policy), run the ONNX checker, apply input shape overrides and run shape inference
// (model_validation, input_shape_override), then convert to asc::Graph (graph_conversion).
// Every error is an asc::Error naming the file and, where there is one, the node.
class OnnxParser final : public Parser {
 public:
  std::string name() const override { return "onnx"; }
  std::vector<std::string> extensions() const override { return {".onnx"}; }
  Graph parse(const std::filesystem::path& model, const ParseOptions& options) const override;
};

}  // namespace asc::parser_onnx
