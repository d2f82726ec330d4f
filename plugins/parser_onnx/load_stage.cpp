#include "load_stage.hpp"

#include <asc/sdk/parser.hpp>

#include "out_nodes.hpp"

namespace asc::parser_onnx {

StageDefinition load_stage(std::shared_ptr<const OnnxParser> parser) {
  auto run = [parser](PipelineContext& context, const StageParams& params) {
    const std::filesystem::path model = params.get_path("model");
    ParseOptions options;
    if (params.has("input_shape")) options.input_shapes = parse_input_shape_spec(params.get_string("input_shape"));
    // Checked before parsing, so a typo fails fast even on a large model.
    const auto out_nodes = params.has("out_nodes") && !params.get_string("out_nodes").empty()
                               ? parse_out_nodes(params.get_string("out_nodes"))
                               : std::vector<OutNode>{};
    context.graph = parser->parse(model, options);
    if (!out_nodes.empty()) select_out_nodes(*context.graph, out_nodes, model.string());
    context.artifacts["model"] = model;
  };
  return {"onnx.load",
          "Parses an ONNX model into the pipeline's graph",
          {{"model", ParamType::Path, true, "", "the .onnx file"},
           {"input_shape", ParamType::String, false, "",
            "fixes input dims before shape inference, ATC syntax: name:1,3,224,224;name2:1,128 (-1 = dynamic)"},
           {"out_nodes", ParamType::String, false, "",
            "ATC's --out_nodes: node:index;node2:index become the graph outputs, nodes they do not need are dropped"}},
          run,
          {}};
}

}  // namespace asc::parser_onnx
