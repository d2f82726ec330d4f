#include <doctest/doctest.h>

#include <string>

#include "asc/sdk/error.hpp"
#include "asc/sdk/pipeline.hpp"
#include "asc/sdk/registry.hpp"

namespace {

asc::Error error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const asc::Error& error) {
    return error;
  }
  FAIL("expected an asc::Error");
  return asc::Error(asc::ErrorCode::Internal, "unreachable");
}

}  // namespace

TEST_CASE("typed getters convert text") {
  asc::StageParams params;
  params.set("count", " 42 ");
  params.set("ratio", "1e-3");
  params.set("flag", "Yes");
  params.set("off", "false");
  params.set("model", "models/resnet.onnx");
  params.set("list", " a, ,b ,c,");
  CHECK(params.get_int("count") == 42);
  CHECK(params.get_float("ratio") == doctest::Approx(0.001));
  CHECK(params.get_bool("flag"));
  CHECK_FALSE(params.get_bool("off"));
  CHECK(params.get_path("model") == std::filesystem::path("models/resnet.onnx"));
  CHECK(params.get_list("list") == std::vector<std::string>{"a", "b", "c"});
  CHECK(params.get_string("list") == " a, ,b ,c,");
}

TEST_CASE("getter errors name the parameter and the stage") {
  asc::StageParams params;
  params.set_stage_name("reference.run");
  params.set("threads", "four");
  params.set("tolerance", "0.1x");
  params.set("dump", "maybe");

  const asc::Error missing = error_of([&] { params.get_string("model"); });
  CHECK(missing.code() == asc::ErrorCode::ConfigMissingKey);
  CHECK(missing.message().find("'model'") != std::string::npos);
  CHECK(missing.message().find("'reference.run'") != std::string::npos);

  const asc::Error not_int = error_of([&] { params.get_int("threads"); });
  CHECK(not_int.code() == asc::ErrorCode::ConfigWrongType);
  CHECK(not_int.message().find("'threads'") != std::string::npos);
  CHECK(not_int.message().find("four") != std::string::npos);
  CHECK(not_int.message().find("'reference.run'") != std::string::npos);

  CHECK(error_of([&] { params.get_float("tolerance"); }).code() == asc::ErrorCode::ConfigWrongType);
  CHECK(error_of([&] { params.get_bool("dump"); }).code() == asc::ErrorCode::ConfigWrongType);
  CHECK(error_of([&] { params.get_int("absent"); }).code() == asc::ErrorCode::ConfigMissingKey);
}

TEST_CASE("param type names") {
  CHECK(asc::param_type_name(asc::ParamType::Int) == "int");
  CHECK(asc::param_type_name(asc::ParamType::Path) == "path");
  CHECK(asc::param_type_name(asc::ParamType::StringList) == "string list");
}

TEST_CASE("require_graph tells which stage lacked a graph") {
  asc::Registry registry;
  asc::PipelineContext context{registry, std::nullopt, {}, {}, {}, false};
  const asc::Error error = error_of([&] { context.require_graph("fusion.run"); });
  CHECK(error.code() == asc::ErrorCode::ConfigMissingKey);
  CHECK(error.message().find("'fusion.run'") != std::string::npos);
  context.graph.emplace();
  context.graph->name = "g";
  CHECK(context.require_graph("fusion.run").name == "g");
}
