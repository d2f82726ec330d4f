// Opset policy: old opsets are converted to 11 by ONNX's version converter, newer than 17 refused.
#include <doctest/doctest.h>

#include <algorithm>

#include "parser_fixture.hpp"

namespace asc::test {

TEST_CASE("an opset 9 model is converted to opset 11") {
  const auto path = model_path("opset9.onnx");
  const Graph graph = parse(path);
  CHECK(graph.opset() == 11);
  CHECK(graph.metadata.at("original_opset") == "9");

  for (const Node* node : graph.nodes()) CHECK(node->op_type != "Upsample");
  // Upsample became Resize(X, roi, scales), keeping the original node's name and provenance.
  const Node& resize = node_named(graph, "up");
  CHECK(resize.op_type == "Resize");
  REQUIRE(resize.inputs.size() == 3);
  CHECK(resize.inputs[0] == "X");
  CHECK(resize.inputs[2] == "scales");
  CHECK(resize.attributes.get_string("mode", "") == "nearest");
  CHECK(resize.provenance == std::vector<std::string>{"up"});
  CHECK(node_named(graph, "bn").op_type == "BatchNormalization");
  // Clip-6's min/max attributes became inputs in Clip-11.
  const Node& clip = node_named(graph, "clip");
  CHECK(clip.inputs.size() == 3);
  CHECK_FALSE(clip.attributes.has("min"));
  CHECK_FALSE(clip.attributes.has("max"));
  CHECK(type_of(graph, "Y") == "float32[1,2,8,8]");
  CHECK(type_of(graph, resize.outputs[0]) == "float32[1,2,8,8]");
}

TEST_CASE("opset 18 is refused naming the opset and the supported range") {
  const auto path = model_path("opset18.onnx");
  check_error(parse_error(path), ErrorCode::OpsetUnsupported, path, {"opset 18", "17"});
}

TEST_CASE("conversion of a model with custom-domain nodes is refused naming the node") {
  const auto path = model_path("opset9_custom_domain.onnx");
  check_error(parse_error(path), ErrorCode::OpsetUnsupported, path, {"'mystery'", "opset 9"});
}

}  // namespace asc::test
