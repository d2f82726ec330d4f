// msprof's collection command line: both application forms, the options as the runtime receives
// them in PROFILER_SAMPLECONFIG (msprof's ProfileParams keys), and every bad command line as a
// coded error naming the flag.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>

#include "command_line.hpp"
#include <asc/sdk/msprof/collection_options.hpp>

using namespace asc;
using asc::msprof::parse_command_line;

namespace {

// The error a command line gives (code and message), or fails the test.
Error error_of(const std::vector<std::string>& arguments) {
  try {
    parse_command_line(arguments);
  } catch (const Error& error) {
    return error;
  }
  FAIL("no error for the command line");
  return Error(ErrorCode::Internal, "");
}

}  // namespace

TEST_CASE("the application after the options, the options recorded with msprof's keys") {
  const auto invocation = parse_command_line({"--output=/tmp/prof", "--aic-mode=sample-based", "--aic-freq", "50",
                                              "--runtime-api=on", "--sys-hardware-mem=on", "./ais_bench",
                                              "--model=m.om", "--loop", "3"});
  CHECK(invocation.application == std::vector<std::string>{"./ais_bench", "--model=m.om", "--loop", "3"});
  CHECK(invocation.output == "/tmp/prof");
  const auto& config = invocation.sample_config;
  CHECK(config["result_dir"] == "/tmp/prof");
  CHECK(config["app"] == "ais_bench");
  CHECK(config["app_dir"] == ".");
  CHECK(config["app_parameters"] == "--model=m.om --loop 3");
  CHECK(config["ai_core_profiling"] == "on");
  CHECK(config["ai_core_profiling_mode"] == "sample-based");
  CHECK(config["aicore_sampling_interval"] == 20);  // 1000 ms / 50 Hz
  CHECK(config["ai_core_metrics"] == "PipeUtilization");
  CHECK(config["taskTime"] == "on");
  CHECK(config["runtimeApi"] == "on");
  CHECK(config["hardware_mem"] == "on");
}

TEST_CASE("msprof's defaults: task-based, 100 Hz, PipeUtilization, task time on, output in the current directory") {
  const auto invocation = parse_command_line({"ais_bench"});
  CHECK(invocation.output == std::filesystem::current_path());
  CHECK(invocation.sample_config["ai_core_profiling_mode"] == "task-based");
  CHECK(invocation.sample_config["aicore_sampling_interval"] == 10);
  CHECK(invocation.sample_config["runtimeApi"] == "off");
}

TEST_CASE("--application takes the command as one quoted string") {
  const auto invocation = parse_command_line({"--application=./app --x 'two words' \"a\\\"b\" c\\ d"});
  CHECK(invocation.application == std::vector<std::string>{"./app", "--x", "two words", "a\"b", "c d"});
  CHECK(invocation.sample_config["app_dir"] == ".");
}

TEST_CASE("the runtime accepts exactly what the command line hands it") {
  const auto invocation = parse_command_line({"--output=/tmp/p", "--aic-mode=sample-based", "--aic-freq=20",
                                              "--task-time=l0", "app"});
  const msprof::CollectionOptions options =
      msprof::parse_sample_config(invocation.sample_config.dump(), "PROFILER_SAMPLECONFIG");
  CHECK(options.result_dir == "/tmp/p");
  CHECK(options.aic_mode == msprof::AicMode::SampleBased);
  CHECK(options.sampling_interval_ms == 50);
  CHECK(options.task_time == msprof::TaskTimeLevel::L0);
  CHECK(options.sampled());
  CHECK_FALSE(options.per_task_pmu());
}

TEST_CASE("bad command lines are EE5008 naming the flag, an unmodelled PMU group EE5007") {
  struct Case {
    std::vector<std::string> arguments;
    ErrorCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--aic-mode=sampled", "app"}, ErrorCode::UsageError, "--aic-mode"},
      {{"--aic-freq=0", "app"}, ErrorCode::UsageError, "valid value range is [1, 100]"},
      {{"--aic-freq=101", "app"}, ErrorCode::UsageError, "valid value range is [1, 100]"},
      {{"--aic-freq=ten", "app"}, ErrorCode::UsageError, "expected an integer"},
      {{"--aic-metrics=Memory", "app"}, ErrorCode::ConfigBadValue, "PipeUtilization only"},
      {{"--aic-metrics=Memroy", "app"}, ErrorCode::UsageError, "did you mean 'Memory'"},
      {{"--aic-mdoe=task-based", "app"}, ErrorCode::UsageError, "did you mean '--aic-mode'"},
      {{"--task-time=l2", "app"}, ErrorCode::UsageError, "--task-time"},
      {{"--ai-core=yes", "app"}, ErrorCode::UsageError, "--ai-core"},
      {{"--sys-cpu-freq=fast", "app"}, ErrorCode::UsageError, "--sys-cpu-freq"},
      {{"--output=x"}, ErrorCode::UsageError, "no application to profile"},
      {{"--application=./a", "./b"}, ErrorCode::UsageError, "given twice"},
      {{"--application=./a 'b"}, ErrorCode::UsageError, "unterminated"},
      {{"--output=a", "--output=b", "app"}, ErrorCode::UsageError, "given twice"},
      {{"--export=on", "--output=PROF_1"}, ErrorCode::UsageError, "--export is not available"},
      {{"--output"}, ErrorCode::UsageError, "needs a value"},
  };
  for (const Case& c : cases) {
    std::string line;
    for (const auto& argument : c.arguments) line += argument + " ";
    CAPTURE(line);
    const Error error = error_of(c.arguments);
    CHECK(error.code() == c.code);
    CHECK(error.message().find(c.message) != std::string::npos);
  }
}

TEST_CASE("--help and -h stop before anything is checked") {
  CHECK(parse_command_line({"--help"}).help);
  CHECK(parse_command_line({"-h"}).help);
  CHECK(msprof::usage().find("--aic-mode") != std::string::npos);
}
