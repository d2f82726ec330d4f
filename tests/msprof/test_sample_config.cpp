// PROFILER_SAMPLECONFIG as the npusim runtime reads it: msprof's keys, its defaults, and a coded
// error for anything msprof would not have written.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <asc/sdk/error.hpp>

#include <asc/sdk/msprof/collection_options.hpp>

using namespace asc;
using namespace asc::msprof;

TEST_CASE("only result_dir is required; the rest defaults to msprof's task-based collection") {
  const CollectionOptions options = parse_sample_config(R"({"result_dir":"/tmp/r","app":"x","msproftx":"off"})", "env");
  CHECK(options.result_dir == "/tmp/r");
  CHECK(options.ai_core);
  CHECK(options.aic_mode == AicMode::TaskBased);
  CHECK(options.sampling_interval_ms == 10);
  CHECK(options.per_task_pmu());
  CHECK(nlohmann::json::parse(options.sample_config)["msproftx"] == "off");  // kept for sample.json
}

TEST_CASE("--ai-core=off leaves no PMU data, sampled or per task") {
  const CollectionOptions options = parse_sample_config(
      R"({"result_dir":"d","ai_core_profiling":"off","ai_core_profiling_mode":"sample-based"})", "env");
  CHECK_FALSE(options.sampled());
  CHECK_FALSE(options.per_task_pmu());
}

TEST_CASE("malformed sample configs are coded errors naming the key") {
  const auto code_of = [](const std::string& text) {
    try {
      parse_sample_config(text, "environment variable PROFILER_SAMPLECONFIG");
    } catch (const Error& error) {
      CHECK(error.message().find("PROFILER_SAMPLECONFIG") != std::string::npos);
      return error.code();
    }
    return ErrorCode::Internal;
  };
  CHECK(code_of("{not json") == ErrorCode::ConfigSyntax);
  CHECK(code_of("[1,2]") == ErrorCode::ConfigSyntax);
  CHECK(code_of(R"({"app":"x"})") == ErrorCode::ConfigMissingKey);
  CHECK(code_of(R"({"result_dir":"d","ai_core_profiling_mode":"every-task"})") == ErrorCode::ConfigBadValue);
  CHECK(code_of(R"({"result_dir":"d","aicore_sampling_interval":5})") == ErrorCode::ConfigBadValue);
  CHECK(code_of(R"({"result_dir":"d","aicore_sampling_interval":"10"})") == ErrorCode::ConfigWrongType);
  CHECK(code_of(R"({"result_dir":"d","ai_core_metrics":"Memory"})") == ErrorCode::ConfigBadValue);
  CHECK(code_of(R"({"result_dir":"d","taskTime":"l3"})") == ErrorCode::ConfigBadValue);
}
