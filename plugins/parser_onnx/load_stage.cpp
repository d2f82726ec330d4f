#include "load_stage.hpp"

#include <asc/sdk/parser.hpp>

namespace asc::parser_onnx {

StageDefinition load_stage(std::shared_ptr<const OnnxParser> parser) {
  auto run = [parser](PipelineContext& context, const StageParams& params) {
    const std::filesystem::path model = params.get_path("model");
    ParseOptions options;
    if (params.has("input_shape")) options.input_shapes = parse_input_shape_spec(params.get_string("input_shape"));
    context.graph = parser->parse(model, options);
    context.artifacts["model"] = model;
  };
  return {"onnx.load",
          "Parses an ONNX model into the pipeline's graph",
          {{"model", ParamType::Path, true, "", "the .onnx file"},
           {"input_shape", ParamType::String, false, "",
            "fixes input dims before shape inference, ATC syntax: name:1,3,224,224;name2:1,128 (-1 = dynamic)"}},
          run,
          {}};
}

}  // namespace asc::parser_onnx
