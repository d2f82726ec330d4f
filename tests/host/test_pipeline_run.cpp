// Pipelines checked against the loaded plugins and run: stage order, variables, --set, defaults,
// every validation error with its code and position, and stage failures.
#include <doctest/doctest.h>

#include "asc/host/pipeline_plan.hpp"
#include "asc/host/pipeline_runner.hpp"
#include "test_support.hpp"

namespace asc::host {
namespace {

namespace fs = std::filesystem;
using testing::error_message;

bool run_text_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A pipeline file in a scratch directory, run against the test plugins.
struct Fixture {
  testing::ScratchDir scratch;
  fs::path pipeline = scratch / "pipe.yaml";
  fs::path out = scratch / "out.txt";
  PluginHost plugins{{ASC_TEST_PLUGIN_DIR}};

  Fixture() { plugins.load_all(); }

  PipelinePlan plan(const std::string& text, std::vector<VariableAssignment> assignments = {}) {
    testing::write_text(pipeline, text);
    assignments.insert(assignments.begin(), VariableAssignment{"out", out.string()});
    return plan_pipeline(load_pipeline_document(pipeline), plugins, assignments);
  }

  void run(const std::string& text, std::vector<VariableAssignment> assignments = {}) {
    const auto planned = plan(text, std::move(assignments));
    PipelineContext context{plugins.registry()};
    run_pipeline(planned, context);
  }

  // The code must match and the message must cite pipe.yaml:<line>:<column>.
  std::string expect_error(const std::string& text, ErrorCode code, int line, int column,
                           std::vector<VariableAssignment> assignments = {}) {
    const auto message = error_message([&] { plan(text, assignments); }, code);
    const std::string location = pipeline.string() + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
    CHECK_MESSAGE(run_text_contains(message, location), message);
    return message;
  }

  std::string output() const { return testing::read_text(out); }
};

const std::string kHeader =
    "name: test\n"               // 1
    "plugins: [test_stages]\n"   // 2
    "variables:\n"               // 3
    "  out: ~\n"                 // 4
    "  word: hello\n"            // 5
    "stages:\n";                 // 6

TEST_CASE("stages run in order with variables, --set values, defaults and lists") {
  Fixture fixture;
  fixture.run(kHeader +
                  "  - stage: test.append\n"
                  "    with: {file: \"${out}\", text: \"first ${word}, not $${word}\"}\n"
                  "  - stage: test.append\n"
                  "    name: second\n"
                  "    with:\n"
                  "      file: ${out}\n"
                  "      text: second\n"
                  "  - stage: test.append\n"
                  "    disabled: true\n"
                  "    with: {file: \"${out}\", text: never}\n"
                  "  - stage: test.typed\n"
                  "    with:\n"
                  "      file: ${out}\n"
                  "      count: 7\n"
                  "      items: [a, \"${word}\", c]\n"
                  "  - stage: test.typed\n"
                  "    with: {file: \"${out}\", count: -2, ratio: 2.25, flag: on}\n",
              {{"word", "world"}});
  CHECK(fixture.output() ==
        "first world, not ${word}\n"
        "second\n"
        "count=7 ratio=0.5 flag=false items=a|world|c\n"
        "count=-2 ratio=2.25 flag=true items=(none)\n");
}

TEST_CASE("the last --set of a variable wins") {
  Fixture fixture;
  fixture.run(kHeader + "  - stage: test.append\n    with: {file: \"${out}\", text: \"${word}\"}\n",
              {{"word", "one"}, {"word", "two"}});
  CHECK(fixture.output() == "two\n");
}

TEST_CASE("an unknown stage is EE5005 with close names") {
  Fixture fixture;
  const auto message = fixture.expect_error(kHeader + "  - stage: test.apend\n", ErrorCode::ConfigUnknownStage, 7, 12);
  CHECK(run_text_contains(message, "'test.apend'"));
  CHECK(run_text_contains(message, "did you mean 'test.append'"));
}

TEST_CASE("a stage of a plugin the pipeline does not list is EE5005") {
  Fixture fixture;
  const auto message = fixture.expect_error(
      "name: test\nplugins: []\nvariables: {out: ~}\nstages:\n  - stage: test.append\n",
      ErrorCode::ConfigUnknownStage, 5, 12);
  CHECK(run_text_contains(message, "plugin 'test_stages'"));
}

TEST_CASE("an unknown parameter is EE5002 listing the stage's parameters") {
  Fixture fixture;
  const auto message = fixture.expect_error(
      kHeader + "  - stage: test.append\n    with:\n      file: x\n      txt: y\n", ErrorCode::ConfigUnknownKey, 10, 7);
  CHECK(run_text_contains(message, "did you mean 'text'"));
  CHECK(run_text_contains(message, "file, text"));
}

TEST_CASE("a missing required parameter is EE5004 at the stage") {
  Fixture fixture;
  const auto message =
      fixture.expect_error(kHeader + "  - stage: test.append\n    with: {file: x}\n", ErrorCode::ConfigMissingKey, 7, 5);
  CHECK(run_text_contains(message, "'text'"));
}

TEST_CASE("Int, Float and Bool parameters are type-checked after substitution (EE5003)") {
  Fixture fixture;
  fixture.expect_error(kHeader + "  - stage: test.typed\n    with: {file: x, count: many}\n", ErrorCode::ConfigWrongType,
                       8, 28);
  fixture.expect_error(kHeader + "  - stage: test.typed\n    with: {file: x, count: 1, ratio: \"${word}\"}\n",
                       ErrorCode::ConfigWrongType, 8, 38);
  const auto message = fixture.expect_error(
      kHeader + "  - stage: test.typed\n    with:\n      file: x\n      count: 1\n      flag: maybe\n",
      ErrorCode::ConfigWrongType, 11, 13);
  CHECK(run_text_contains(message, "true or false"));
}

TEST_CASE("an unknown variable in ${...} is EE5006 at the value") {
  Fixture fixture;
  const auto message = fixture.expect_error(kHeader + "  - stage: test.append\n    with: {file: x, text: \"${wrd}\"}\n",
                                            ErrorCode::ConfigUnknownVariable, 8, 27);
  CHECK(run_text_contains(message, "did you mean 'word'"));
  fixture.expect_error(kHeader + "  - stage: test.append\n    with: {file: x, text: \"${word\"}\n",
                       ErrorCode::ConfigBadValue, 8, 27);
}

TEST_CASE("a required variable that is not set is EE5004 at its declaration") {
  Fixture fixture;
  const auto message = fixture.expect_error(
      "name: t\nplugins: [test_stages]\nvariables:\n  out: ~\n  model: ~\nstages:\n  - stage: test.append\n"
      "    with: {file: \"${out}\", text: \"${model}\"}\n",
      ErrorCode::ConfigMissingKey, 5, 3);
  CHECK(run_text_contains(message, "--set model=VALUE"));
}

TEST_CASE("--set of an undeclared variable is EE5006 citing the variables") {
  Fixture fixture;
  const auto message = fixture.expect_error(kHeader + "  - stage: test.append\n    with: {file: x, text: y}\n",
                                            ErrorCode::ConfigUnknownVariable, 3, 1, {{"wrod", "x"}});
  CHECK(run_text_contains(message, "did you mean 'word'"));
  CHECK(run_text_contains(message, "declared: out, word"));
}

TEST_CASE("bad --set syntax is EE5008 naming the argument") {
  CHECK(run_text_contains(error_message([] { parse_assignment("model"); }, ErrorCode::UsageError),
                          "--set 'model'"));
  error_message([] { parse_assignment("=value"); }, ErrorCode::UsageError);
  const auto assignment = parse_assignment("expr=a=b");
  CHECK(assignment.name == "expr");
  CHECK(assignment.value == "a=b");
  CHECK(parse_assignment("empty=").value.empty());
}

TEST_CASE("a missing plugin is EE6006 at the plugins list") {
  Fixture fixture;
  const auto message = fixture.expect_error(
      "name: t\nplugins: [test_stages, backend_imaginary]\nvariables: {out: ~}\nstages:\n  - stage: test.append\n",
      ErrorCode::PluginNotFound, 2, 10);
  CHECK(run_text_contains(message, "backend_imaginary"));
}

TEST_CASE("nothing runs when a later stage is invalid") {
  Fixture fixture;
  fixture.expect_error(kHeader + "  - stage: test.append\n    with: {file: \"${out}\", text: a}\n  - stage: test.nope\n",
                       ErrorCode::ConfigUnknownStage, 9, 12);
  CHECK_FALSE(fs::exists(fixture.out));
}

TEST_CASE("a failing stage stops the pipeline with its code, label and position") {
  Fixture fixture;
  try {
    fixture.run(kHeader +
                "  - stage: test.append\n"
                "    with: {file: \"${out}\", text: before}\n"
                "  - stage: test.fail\n"
                "    name: boom\n"
                "    with: {message: \"kernel exploded\"}\n"
                "  - stage: test.append\n"
                "    with: {file: \"${out}\", text: after}\n");
    FAIL("the pipeline should have failed");
  } catch (const StageFailure& failure) {
    CHECK(failure.code() == ErrorCode::ExecutionFailed);
    CHECK(std::string(failure.what()) ==
          "stage 'boom' (" + fixture.pipeline.string() + ":9) failed: EE8001 execution failed: kernel exploded");
  }
  CHECK(fixture.output() == "before\n");
}

TEST_CASE("a stage throwing something other than asc::Error is an internal error") {
  Fixture fixture;
  try {
    fixture.run(kHeader + "  - stage: test.crash\n");
    FAIL("the pipeline should have failed");
  } catch (const StageFailure& failure) {
    CHECK(failure.code() == ErrorCode::Internal);
    CHECK(run_text_contains(failure.what(), "EE9001"));
    CHECK(run_text_contains(failure.what(), "not an asc::Error"));
  }
}

}  // namespace
}  // namespace asc::host
