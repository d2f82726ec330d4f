// ONNX model parser: the "onnx" parser and the `onnx.load` pipeline stage.
#include <asc/sdk/plugin.hpp>

#include "load_stage.hpp"
#include "onnx_parser.hpp"

ASC_PLUGIN("parser_onnx", ASC_SDK_VERSION_STRING, asc::kParserKind, "ONNX model parser (opsets 1..17)") {
  auto parser = std::make_shared<const asc::parser_onnx::OnnxParser>();
  registrar.add_parser(parser);
  registrar.add_stage(asc::parser_onnx::load_stage(parser));
}
