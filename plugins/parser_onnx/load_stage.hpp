#pragma once

#include <memory>

#include <asc/sdk/pipeline.hpp>

#include "onnx_parser.hpp"

namespace asc::parser_onnx {

// The `onnx.load` pipeline stage: parses `model` (with the optional ATC-style `input_shape`)
// into the context's graph and records the file as artifact "model". With `out_nodes`
// (ATC's "node:index;..."), those node outputs become the graph outputs.
StageDefinition load_stage(std::shared_ptr<const OnnxParser> parser);

}  // namespace asc::parser_onnx
