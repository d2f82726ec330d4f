// The onnx.load pipeline stage and the parser's registration.
#include <doctest/doctest.h>

#include <asc/sdk/pipeline.hpp>

#include "parser_fixture.hpp"

namespace asc::test {
namespace {

PipelineContext run_load(const StageDefinition& stage, const std::map<std::string, std::string>& values) {
  PipelineContext context{plugin_registry()};
  StageParams params;
  params.set_stage_name(stage.name);
  for (const auto& [name, value] : values) params.set(name, value);
  stage.run(context, params);
  return context;
}

}  // namespace

TEST_CASE("the plugin registers the onnx parser for .onnx files") {
  CHECK(onnx_parser().name() == "onnx");
  CHECK(onnx_parser().extensions() == std::vector<std::string>{".onnx"});
  CHECK(plugin_registry().parser_for("net.onnx") == &onnx_parser());
}

TEST_CASE("onnx.load declares its parameters and fills the context") {
  const StageDefinition* stage = plugin_registry().stage("onnx.load");
  REQUIRE(stage != nullptr);
  REQUIRE(stage->params.size() == 3);
  CHECK(stage->params[0].name == "model");
  CHECK(stage->params[0].type == ParamType::Path);
  CHECK(stage->params[0].required);
  CHECK(stage->params[1].name == "input_shape");
  CHECK(stage->params[1].type == ParamType::String);
  CHECK_FALSE(stage->params[1].required);
  CHECK(stage->params[2].name == "out_nodes");
  CHECK_FALSE(stage->params[2].required);

  const auto path = model_path("conv.onnx");
  SUBCASE("without input_shape") {
    const auto context = run_load(*stage, {{"model", path.string()}});
    REQUIRE(context.graph.has_value());
    CHECK(context.graph->node_count() == 6);
    CHECK(context.artifacts.at("model") == path);
  }
  SUBCASE("with an ATC-style input_shape") {
    const auto context = run_load(*stage, {{"model", path.string()}, {"input_shape", "X:3,3,8,8"}});
    CHECK(type_of(*context.graph, "Y") == "float32[3,16]");
  }
  SUBCASE("input_shape syntax errors are EE1009") {
    for (const std::string bad : {"X:3,a,8,8", "X3,3,8,8", "X:1,3,8,8;X:1,3,8,8", "X:-2,3,8,8"}) {
      INFO(bad);
      try {
        run_load(*stage, {{"model", path.string()}, {"input_shape", bad}});
        FAIL("no error");
      } catch (const Error& error) {
        CHECK(error.code() == ErrorCode::InputShapeInvalid);
      }
    }
  }
}

TEST_CASE("onnx.load out_nodes makes node outputs the graph outputs and drops the rest") {
  const StageDefinition* stage = plugin_registry().stage("onnx.load");
  REQUIRE(stage != nullptr);
  const auto path = model_path("conv.onnx");
  // conv.onnx: conv1 -> (LeakyRelu) -> pool -> mul (with scale_const) -> flatten.
  SUBCASE("one intermediate output") {
    const auto context = run_load(*stage, {{"model", path.string()}, {"out_nodes", "pool:0"}});
    CHECK(context.graph->outputs == std::vector<std::string>{"p"});
    CHECK(context.graph->node_count() == 3);
    CHECK(context.graph->find_node("mul") == nullptr);
    CHECK(context.graph->find_node("flatten") == nullptr);
    CHECK(context.graph->initializers.count("shape") == 0);  // only flatten read it
    CHECK(context.graph->initializers.count("W") == 1);
    CHECK(type_of(*context.graph, "p") == "float32[N,4,2,2]");
  }
  SUBCASE("several outputs keep the order given, duplicates once") {
    const auto context =
        run_load(*stage, {{"model", path.string()}, {"out_nodes", "flatten:0;conv1:0;flatten:0"}});
    CHECK(context.graph->outputs == std::vector<std::string>{"Y", "c"});
    CHECK(context.graph->node_count() == 6);
  }
  SUBCASE("empty keeps the model's outputs") {
    const auto context = run_load(*stage, {{"model", path.string()}, {"out_nodes", ""}});
    CHECK(context.graph->outputs == std::vector<std::string>{"Y"});
  }
  SUBCASE("unknown nodes, indexes and bad syntax are EE1009 naming the entry") {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"nosuch:0", "'nosuch'"}, {"pool:1", "output 1 of node 'pool'"}, {"pool", "'pool'"},
        {"pool:x", "'pool:x'"}, {":0", "':0'"}, {"pool:-1", "'pool:-1'"}, {";", "lists no node"}};
    for (const auto& [bad, named] : cases) {
      const std::string label = bad;
      INFO(label);
      try {
        run_load(*stage, {{"model", path.string()}, {"out_nodes", bad}});
        FAIL("no error");
      } catch (const Error& error) {
        CHECK(error.code() == ErrorCode::InputShapeInvalid);
        CHECK_MESSAGE(std::string(error.what()).find(named) != std::string::npos, error.what());
      }
    }
  }
}

}  // namespace asc::test
