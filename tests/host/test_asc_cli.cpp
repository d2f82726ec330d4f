// The `asc` executable as a user runs it: exit codes, messages on stderr, and plugin discovery
// beside the executable.
#include <doctest/doctest.h>

#include "asc/sdk/version.hpp"
#include "test_support.hpp"

namespace asc::host {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Runs asc with ASC_PLUGIN_PATH unset, so only the given arguments and the executable's
// location decide which plugins are found.
testing::ProcessResult asc(const std::string& arguments, const ScratchDir& scratch) {
  return testing::run_process("env -u ASC_PLUGIN_PATH '" ASC_EXECUTABLE "' " + arguments, scratch);
}

const std::string kTestPluginsOption = "--plugin-dir '" ASC_TEST_PLUGIN_DIR "'";

TEST_CASE("asc --version, --help, and usage errors") {
  ScratchDir scratch;
  const auto version = asc("--version", scratch);
  CHECK(version.exit_code == 0);
  CHECK(contains(version.out, "SDK " ASC_SDK_VERSION_STRING));

  const auto help = asc("--help", scratch);
  CHECK(help.exit_code == 0);
  CHECK(contains(help.out, "run"));
  CHECK(asc("run --help", scratch).exit_code == 0);
  CHECK(asc("plugins --help", scratch).exit_code == 0);
  CHECK(asc("stages --help", scratch).exit_code == 0);

  for (const std::string arguments : {"", "frobnicate", "run", "run a.yaml --no-such-option", "plugins --log loud"}) {
    const auto usage = asc(arguments, scratch);
    CHECK_MESSAGE(usage.exit_code == 15, arguments);
    CHECK_MESSAGE(usage.err.starts_with("asc: EE5008 "), usage.err);
  }
}

TEST_CASE("asc run succeeds, and reports errors with file:line:column and the code's exit status") {
  ScratchDir scratch;
  const auto pipeline = scratch / "pipe.yaml";
  const auto out = scratch / "out.txt";
  testing::write_text(pipeline,
                      "name: cli\n"
                      "plugins: [test_stages]\n"
                      "variables: {out: ~, text: default}\n"
                      "stages:\n"
                      "  - stage: test.append\n"
                      "    with: {file: \"${out}\", text: \"${text}\"}\n");
  const std::string run = "run '" + pipeline.string() + "' " + kTestPluginsOption + " --set out='" + out.string() + "'";

  const auto success = asc(run + " --set text=from-cli", scratch);
  CHECK_MESSAGE(success.exit_code == 0, success.err);
  CHECK(testing::read_text(out) == "from-cli\n");

  const auto unknown_variable = asc(run + " --set txt=x", scratch);
  CHECK(unknown_variable.exit_code == 15);
  CHECK(contains(unknown_variable.err, "asc: EE5006 "));
  CHECK(contains(unknown_variable.err, pipeline.string() + ":3:1: "));

  const auto bad_set = asc(run + " --set novalue", scratch);
  CHECK(bad_set.exit_code == 15);
  CHECK(contains(bad_set.err, "asc: EE5008 "));

  const auto missing_file = asc("run '" + (scratch / "absent.yaml").string() + "'", scratch);
  CHECK(missing_file.exit_code == 14);
  CHECK(contains(missing_file.err, "asc: EE4001 "));
}

TEST_CASE("asc run: a failing stage exits with its code after the earlier stages ran") {
  ScratchDir scratch;
  const auto pipeline = scratch / "pipe.yaml";
  const auto out = scratch / "out.txt";
  testing::write_text(pipeline,
                      "name: cli\n"
                      "plugins: [test_stages]\n"
                      "variables: {out: ~}\n"
                      "stages:\n"
                      "  - stage: test.append\n"
                      "    with: {file: \"${out}\", text: ran}\n"
                      "  - stage: test.fail\n"
                      "    name: boom\n");
  const auto failed = asc("run '" + pipeline.string() + "' " + kTestPluginsOption + " --set out='" + out.string() + "'",
                          scratch);
  CHECK(failed.exit_code == 18);
  CHECK(contains(failed.err, "asc: stage 'boom' (" + pipeline.string() + ":7) failed: EE8001 "));
  CHECK(testing::read_text(out) == "ran\n");
}

TEST_CASE("asc run --log info times each stage") {
  ScratchDir scratch;
  const auto pipeline = scratch / "pipe.yaml";
  testing::write_text(pipeline,
                      "name: timed\nplugins: [test_stages]\nvariables: {out: ~}\nstages:\n"
                      "  - stage: test.append\n    name: only\n    with: {file: \"${out}\", text: x}\n");
  const auto result = asc("run '" + pipeline.string() + "' " + kTestPluginsOption + " --log info --set out='" +
                              (scratch / "out.txt").string() + "'",
                          scratch);
  CHECK(result.exit_code == 0);
  CHECK(contains(result.err, "stage 'only' (test.append) took "));
}

TEST_CASE("asc plugins lists every in-tree plugin found beside the executable as loaded") {
  ScratchDir scratch;
  const auto result = asc("plugins", scratch);
  REQUIRE(result.exit_code == 0);
  const auto loaded_section = result.out.substr(0, result.out.find("\nRefused"));
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(ASC_BUILD_PLUGIN_DIR, error))
    if (entry.path().extension() == ".so")
      CHECK_MESSAGE(contains(loaded_section, entry.path().string()), result.out);
}

TEST_CASE("asc plugins shows refused files with their reasons; asc stages documents parameters") {
  ScratchDir scratch;
  const auto plugins = asc("plugins " + kTestPluginsOption, scratch);
  CHECK(plugins.exit_code == 0);
  CHECK(contains(plugins.out, "test_stages"));
  CHECK(contains(plugins.out, "Refused"));
  CHECK(contains(plugins.out, "SDK 99.0.0"));
  // The same code as atc --op_lib_path gives for it (tests/atc) and docs/errors.md lists.
  CHECK(contains(plugins.out, "wrong_sdk.so: EE6003 plugin built against an incompatible SDK version"));

  const auto stages = asc("stages " + kTestPluginsOption, scratch);
  CHECK(stages.exit_code == 0);
  CHECK(contains(stages.out, "test.append"));
  CHECK(contains(stages.out, "the line to append"));
  CHECK(contains(stages.out, "default 0.5"));
}

TEST_CASE("asc plugins with nothing to load says how to point it at plugins") {
  ScratchDir scratch;
  // A copy of asc outside the build tree finds no plugins beside itself.
  const auto lonely = scratch / "bin" / "asc";
  fs::create_directories(lonely.parent_path());
  fs::copy_file(ASC_EXECUTABLE, lonely);
  const auto result = testing::run_process("env -u ASC_PLUGIN_PATH '" + lonely.string() + "' plugins", scratch);
  CHECK_MESSAGE(result.exit_code == 0, result.err);
  CHECK(contains(result.out, "No plugin loaded"));
  CHECK(contains(result.out, "--plugin-dir"));
}

}  // namespace
}  // namespace asc::host
