#include <doctest/doctest.h>

#include <string>

#include "asc/sdk/error.hpp"
#include "asc/sdk/plugin.hpp"
#include "asc/sdk/registry.hpp"

namespace {

class FakeParser : public asc::Parser {
 public:
  explicit FakeParser(std::string name, std::vector<std::string> extensions)
      : name_(std::move(name)), extensions_(std::move(extensions)) {}
  std::string name() const override { return name_; }
  std::vector<std::string> extensions() const override { return extensions_; }
  asc::Graph parse(const std::filesystem::path&, const asc::ParseOptions&) const override { return {}; }

 private:
  std::string name_;
  std::vector<std::string> extensions_;
};

class FakeBackend : public asc::Backend {
 public:
  std::string name() const override { return "fake"; }
  std::string description() const override { return "test backend"; }
  std::unique_ptr<asc::Executable> compile(const asc::Graph&, const asc::OpRegistry&,
                                           const asc::BackendOptions&) const override {
    return nullptr;
  }
};

asc::StageDefinition stage(std::string name) {
  asc::StageDefinition definition;
  definition.name = std::move(name);
  definition.run = [](asc::PipelineContext&, const asc::StageParams&) {};
  return definition;
}

}  // namespace

TEST_CASE("names are unique per kind") {
  asc::Registry registry;
  registry.add_parser(std::make_shared<FakeParser>("onnx", std::vector<std::string>{".onnx"}), "parser_onnx");
  try {
    registry.add_parser(std::make_shared<FakeParser>("onnx", std::vector<std::string>{".pb"}), "other_plugin");
    FAIL("expected EE6007");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::PluginDuplicate);
    CHECK(error.message().find("parser_onnx") != std::string::npos);
    CHECK(error.message().find("other_plugin") != std::string::npos);
  }
  registry.add_stage(stage("onnx.load"), "parser_onnx");
  CHECK_THROWS_AS(registry.add_stage(stage("onnx.load"), "other_plugin"), asc::Error);
  // Same name, other kind: fine.
  registry.add_backend(std::make_shared<FakeBackend>(), "backend_fake");
  CHECK(registry.backend("fake") != nullptr);
  CHECK(registry.stage("onnx.load")->plugin == "parser_onnx");
  CHECK(registry.parsers().front().plugin == "parser_onnx");
}

TEST_CASE("parser_for matches extensions case-insensitively") {
  asc::Registry registry;
  registry.add_parser(std::make_shared<FakeParser>("onnx", std::vector<std::string>{".onnx"}), "parser_onnx");
  registry.add_parser(std::make_shared<FakeParser>("tf", std::vector<std::string>{".pb", ".PBTXT"}), "parser_tf");
  CHECK(registry.parser_for("models/ResNet.ONNX")->name() == "onnx");
  CHECK(registry.parser_for("frozen.pbtxt")->name() == "tf");
  CHECK(registry.parser_for("weights.bin") == nullptr);
  CHECK(registry.parser_for("README") == nullptr);
  CHECK(registry.parser("tf") != nullptr);
  CHECK(registry.parser("caffe") == nullptr);
}

TEST_CASE("clear drops everything") {
  asc::Registry registry;
  registry.add_parser(std::make_shared<FakeParser>("onnx", std::vector<std::string>{".onnx"}), "p");
  registry.add_stage(stage("x.y"), "p");
  asc::OpDefinition relu;
  relu.op_type = "Relu";
  registry.ops().add(relu);
  registry.clear();
  CHECK(registry.parsers().empty());
  CHECK(registry.stages().empty());
  CHECK(registry.ops().all().empty());
  CHECK(registry.parser("onnx") == nullptr);
}

TEST_CASE("plugin kinds print as a list") {
  CHECK(asc::plugin_kinds_to_string(asc::kParserKind | asc::kPassKind) == "parser,pass");
  CHECK(asc::plugin_kinds_to_string(0) == "");
}

TEST_CASE("PluginRegistrar checks declared kinds and names the plugin") {
  asc::Registry registry;
  asc::PluginRegistrar ops_only(registry, "my_ops", asc::kOpLibraryKind);
  try {
    ops_only.add_backend(std::make_shared<FakeBackend>());
    FAIL("expected EE6005");
  } catch (const asc::Error& error) {
    CHECK(error.code() == asc::ErrorCode::PluginRegistrationFailed);
    CHECK(error.message().find("plugin 'my_ops' registers a backend but does not declare the backend kind") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(ops_only.add_parser(std::make_shared<FakeParser>("p", std::vector<std::string>{})), asc::Error);

  asc::OpDefinition relu;
  relu.op_type = "Relu";
  relu.plugin = "someone_else";
  ops_only.add_op(relu);
  CHECK(registry.ops().find("", "Relu", 14)->plugin == "my_ops");
  ops_only.add_stage(stage("my_ops.report"));  // any plugin may offer stages
  CHECK(registry.stage("my_ops.report")->plugin == "my_ops");

  asc::PluginRegistrar backend_plugin(registry, "backend_fake", asc::kBackendKind);
  backend_plugin.add_backend(std::make_shared<FakeBackend>());
  CHECK(registry.backends().front().plugin == "backend_fake");
  CHECK_THROWS_AS(backend_plugin.add_op(relu), asc::Error);
}
