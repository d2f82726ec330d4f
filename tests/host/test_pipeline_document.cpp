// Reading pipeline YAML: structure, and the code and file:line:column of every error.
#include <doctest/doctest.h>

#include "asc/host/pipeline_document.hpp"
#include "test_support.hpp"

namespace asc::host {
namespace {

using testing::error_message;

PipelineDocument parse_document(const std::string& text) {
  return parse_pipeline_document(text, "pipe.yaml");
}

// The code must match and the message must cite `location` ("pipe.yaml:4:1") followed by ": ".
std::string expect_error(const std::string& text, ErrorCode code, const std::string& location) {
  const auto message = error_message([&] { parse_document(text); }, code);
  CHECK_MESSAGE(message.find(location + ": ") != std::string::npos, message);
  return message;
}

bool document_text_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("a complete pipeline is read with values, defaults and positions") {
  const auto document = parse_document(
      "name: run_reference\n"                        // 1
      "description: Run a model\n"                   // 2
      "plugins: [parser_onnx, backend_reference]\n"  // 3
      "variables:\n"                                 // 4
      "  model: ~\n"                                 // 5
      "  inputs: \"\"\n"                             // 6
      "  output_dir: out\n"                          // 7
      "stages:\n"                                    // 8
      "  - stage: onnx.load\n"                       // 9
      "    with: {model: \"${model}\"}\n"            // 10
      "  - stage: reference.run\n"                   // 11
      "    name: run\n"                              // 12
      "    with:\n"                                  // 13
      "      inputs: ${inputs}\n"                    // 14
      "      shapes: [1, 3, 224]\n"                  // 15
      "    disabled: yes\n");                        // 16
  CHECK(document.name == "run_reference");
  CHECK(document.description == "Run a model");
  CHECK(document.plugins == std::vector<std::string>{"parser_onnx", "backend_reference"});
  CHECK(document.plugins_where.to_string() == "pipe.yaml:3:10");
  REQUIRE(document.variables.size() == 3);
  CHECK(document.variables[0].name == "model");
  CHECK_FALSE(document.variables[0].default_value.has_value());
  CHECK(document.variables[0].where.to_string() == "pipe.yaml:5:3");
  CHECK(document.variables[1].default_value == std::string());
  CHECK(document.variables[2].default_value == std::string("out"));

  REQUIRE(document.stages.size() == 2);
  const auto& load = document.stages[0];
  CHECK(load.stage == "onnx.load");
  CHECK(load.label == "onnx.load");
  CHECK(load.where.to_string() == "pipe.yaml:9:5");
  CHECK(load.stage_where.to_string() == "pipe.yaml:9:12");
  CHECK_FALSE(load.disabled);
  REQUIRE(load.arguments.size() == 1);
  CHECK(load.arguments[0].value == "${model}");

  const auto& run = document.stages[1];
  CHECK(run.label == "run");
  CHECK(run.disabled);
  REQUIRE(run.arguments.size() == 2);
  CHECK(run.arguments[0].name == "inputs");
  CHECK(run.arguments[0].key_where.to_string() == "pipe.yaml:14:7");
  CHECK(run.arguments[0].value_where.to_string() == "pipe.yaml:14:15");
  CHECK(run.arguments[1].value == "1,3,224");
}

TEST_CASE("YAML syntax errors are EE5001 at yaml-cpp's position") {
  expect_error("name: x: y\nstages: []\n", ErrorCode::ConfigSyntax, "pipe.yaml:1:8");
  expect_error("name: x\n\tstages: 1\n", ErrorCode::ConfigSyntax, "pipe.yaml:2:1");
  expect_error("name: a\nstages:\n  - stage: s\nname: b\n", ErrorCode::ConfigSyntax, "pipe.yaml:4:1");
  // A second document is reported at its "---" marker.
  expect_error("name: a\nstages: [{stage: s}]\n---\nname: b\n", ErrorCode::ConfigSyntax, "pipe.yaml:3:1");
}

// yaml-cpp 0.7's LoadAll never returns on these (found by tests/fuzz/fuzz_pipeline_yaml): a
// top-level token the parser does not consume yields empty documents forever.
TEST_CASE("a stray top-level ',' is EE5001 at the comma, not a hang") {
  CHECK(document_text_contains(expect_error(", model: x\n", ErrorCode::ConfigSyntax, "pipe.yaml:1:1"),
                               "unexpected ','"));
  CHECK(document_text_contains(
      expect_error("# comment\n, model: x\nstages: []\n", ErrorCode::ConfigSyntax, "pipe.yaml:2:1"),
      "unexpected ','"));
  CHECK(document_text_contains(expect_error("{name: a},\n", ErrorCode::ConfigSyntax, "pipe.yaml:1:10"),
                               "unexpected ','"));
  CHECK(document_text_contains(expect_error("\"a\",\n", ErrorCode::ConfigSyntax, "pipe.yaml:1:4"),
                               "unexpected ','"));
}

TEST_CASE("unknown keys are EE5002 naming the allowed keys") {
  const auto top = expect_error("name: x\nstages:\n  - stage: a\noutputs: 3\n", ErrorCode::ConfigUnknownKey,
                                "pipe.yaml:4:1");
  CHECK(document_text_contains(top, "'outputs'"));
  CHECK(document_text_contains(top, "name, description, plugins, variables, stages"));

  const auto stage = expect_error("name: x\nstages:\n  - stage: a\n    wth: {}\n", ErrorCode::ConfigUnknownKey,
                                  "pipe.yaml:4:5");
  CHECK(document_text_contains(stage, "did you mean 'with'"));
  CHECK(document_text_contains(stage, "stage, name, with, disabled"));
}

TEST_CASE("values of the wrong type are EE5003") {
  expect_error("name: x\nplugins: parser_onnx\nstages: [{stage: a}]\n", ErrorCode::ConfigWrongType, "pipe.yaml:2:10");
  expect_error("name: [x]\nstages: [{stage: a}]\n", ErrorCode::ConfigWrongType, "pipe.yaml:1:7");
  expect_error("name: x\nstages: {stage: a}\n", ErrorCode::ConfigWrongType, "pipe.yaml:2:9");
  expect_error("name: x\nstages:\n  - stage: a\n    disabled: maybe\n", ErrorCode::ConfigWrongType, "pipe.yaml:4:15");
  expect_error("name: x\nstages:\n  - stage: a\n    with: {p: {q: 1}}\n", ErrorCode::ConfigWrongType,
               "pipe.yaml:4:15");
  expect_error("name: x\nstages:\n  - stage: a\n    with: {p: [1, [2]]}\n", ErrorCode::ConfigWrongType,
               "pipe.yaml:4:19");
  expect_error("name: x\nstages:\n  - just_a_name\n", ErrorCode::ConfigWrongType, "pipe.yaml:3:5");
}

TEST_CASE("missing keys are EE5004") {
  expect_error("", ErrorCode::ConfigMissingKey, "pipe.yaml:1:1");
  expect_error("stages: [{stage: a}]\n", ErrorCode::ConfigMissingKey, "pipe.yaml:1:1");
  expect_error("name: x\n", ErrorCode::ConfigMissingKey, "pipe.yaml:1:1");
  expect_error("name: x\nstages:\n  - name: nameless\n", ErrorCode::ConfigMissingKey, "pipe.yaml:3:5");
}

TEST_CASE("values that are not allowed are EE5007") {
  expect_error("name: x\nstages: []\n", ErrorCode::ConfigBadValue, "pipe.yaml:2:9");
  expect_error("name: x\nvariables:\n  2fast: 1\nstages: [{stage: a}]\n", ErrorCode::ConfigBadValue, "pipe.yaml:3:3");
}

TEST_CASE("load_pipeline_document reports a missing file as EE4001") {
  error_message([] { load_pipeline_document("/nonexistent/pipe.yaml"); }, ErrorCode::FileNotFound);
}

}  // namespace
}  // namespace asc::host
