// The modelTrade command (exit codes, files written) and the profiler.analyse stage, called
// through the plugin the way pipelines call it.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>
#include <asc/sdk/registry.hpp>
#include <iostream>

#include "stage/analyse_stage.hpp"
#include "test_support.hpp"

using namespace profiler_test;
using Json = nlohmann::ordered_json;

namespace {

CommandResult model_trade(const std::string& arguments) {
  return run_command(std::string("'") + MODEL_TRADE_EXECUTABLE + "' " + arguments);
}

}  // namespace

TEST_CASE("modelTrade writes JSON, HTML and Chrome trace and exits 0") {
  TempDir out;
  const auto result = model_trade(
      "--report=" + quoted(block_dim_prof_dir()) + " --output=" + quoted(out.path() / "perf.json") +
      " --format=json,html,trace --model_name=resnet50 --soc_version=Ascend310P3");
  CAPTURE(result.output);
  REQUIRE(result.exit_code == 0);
  CHECK(result.output.find(
            "modelTrade: resnet50 (Ascend310P3): 15 tasks, 15 operators, total_time 415.00 us") == 0);
  CHECK(result.output.find("[warning] bandwidth_bound") != std::string::npos);
  CHECK(result.output.find("ub_hit_rate not measured") != std::string::npos);
  const Json report = Json::parse(read_text(out.path() / "perf.json"));
  CHECK(report.at("model_name") == "resnet50");
  CHECK(report.at("soc_version") == "Ascend310P3");
  CHECK(read_text(out.path() / "perf.html").find("<svg") != std::string::npos);
  CHECK(Json::parse(read_text(out.path() / "perf.trace.json")).at("traceEvents").size() > 15);
}

TEST_CASE("modelTrade --format=html writes only the HTML; --quiet prints nothing") {
  TempDir out;
  const auto result = model_trade("--report " + quoted(block_num_parent_dir()) + " --output " +
                                  quoted(out.path() / "perf.html") + " --format=html --quiet");
  CAPTURE(result.output);
  CHECK(result.exit_code == 0);
  CHECK(result.output.empty());
  CHECK(fs::exists(out.path() / "perf.html"));
  CHECK_FALSE(fs::exists(out.path() / "perf.json"));
}

TEST_CASE("modelTrade exit codes follow the error class") {
  TempDir dir;
  auto result = model_trade("--report=" + quoted(dir.path() / "missing"));
  CHECK(result.exit_code == 14);
  CHECK(result.output.find("EE4001") != std::string::npos);

  result = model_trade("--report=" + quoted(dir.path()) + " --output=" + quoted(dir.path() / "p.json"));
  CHECK(result.exit_code == 15);
  CHECK(result.output.find("EE5007") != std::string::npos);
  CHECK(result.output.find("no op_summary_*.csv") != std::string::npos);

  const fs::path csv = dir.write("op_summary_1.csv", "Op Name,Task Duration(us)\nconv1,\"1,2\",x\n");
  result = model_trade("--report=" + quoted(dir.path()) + " --output=" + quoted(dir.path() / "p.json"));
  CHECK(result.exit_code == 14);
  CHECK(result.output.find("EE4004") != std::string::npos);
  CHECK(result.output.find(csv.string() + ":2:") != std::string::npos);

  result = model_trade("--report=" + quoted(block_dim_prof_dir()) +
                       " --format=pdf --output=" + quoted(dir.path() / "p"));
  CHECK(result.exit_code == 15);
  CHECK(result.output.find("unknown report format 'pdf'") != std::string::npos);

  result = model_trade("--reprot=x");
  CHECK(result.exit_code == 15);
  CHECK(result.output.find("did you mean 'report'") != std::string::npos);
  CHECK(model_trade("--output=x.json").exit_code == 15);  // no --report
  CHECK(model_trade("stray").exit_code == 15);

  result = model_trade("--help");
  CHECK(result.exit_code == 0);
  CHECK(result.output.find("Usage: modelTrade --report=DIR") == 0);
}

TEST_CASE("asc runs configs/pipelines/model_trade.yaml") {
  TempDir out;
  const auto result = run_command(std::string("'") + ASC_EXECUTABLE + "' run '" + MODEL_TRADE_PIPELINE +
                                  "' --set report=" + quoted(block_dim_prof_dir()) +
                                  " --set output=" + quoted(out.path() / "r.json") +
                                  " --set format=json,html --set soc_version=Ascend310P3");
  CAPTURE(result.output);
  CHECK(result.exit_code == 0);
  CHECK(fs::exists(out.path() / "r.json"));
  CHECK(fs::exists(out.path() / "r.html"));
}

TEST_CASE("profiler.analyse analyses the profile earlier stages collected when no report is given") {
  asc::Registry registry;
  asc::PipelineContext context{registry};
  const auto stage = asc::profiler::analyse_stage();
  TempDir out;
  asc::StageParams params;
  params.set_stage_name(stage.name);
  for (const auto& spec : stage.params)
    if (!spec.default_value.empty()) params.set(spec.name, spec.default_value);
  params.set("output", (out.path() / "p.json").string());
  params.set("print", "false");
  CHECK_THROWS_AS(stage.run(context, params), asc::Error);  // nothing collected yet

  context.profile = trace_of({task("conv", "Conv2D", 30, 0), task("relu", "Relu", 10, 30)});
  stage.run(context, params);
  const Json report = Json::parse(read_text(out.path() / "p.json"));
  CHECK(report.at("model_name") == "test_model");
  CHECK(report.at("total_time").get<double>() == doctest::Approx(40.0));
  CHECK_FALSE(report.contains("source"));
  CHECK(context.artifacts.at("model_trade_json") == out.path() / "p.json");
}
