// ais_bench's flags as users type them: help, aliases, ais_bench's own refusals, exit codes.
#include <doctest/doctest.h>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc::test;

TEST_CASE("--help lists the real tool's options and exits 0") {
  const CommandResult result = ais_bench("--help");
  CHECK(result.exit_code == 0);
  for (const char* flag : {"--model", "--input", "--output", "--output_dirname", "--outfmt", "--loop", "--warmup_count",
                           "--batchsize", "--batch", "--dymBatch", "--dymHW", "--dymDims", "--pure_data_type",
                           "--profiler", "--dump", "--display_all_summary", "--debug"})
    CHECK_MESSAGE(result.out.find(flag) != std::string::npos, flag);
}

TEST_CASE("ais-bench is the same program") {
  const std::filesystem::path alias = std::filesystem::path(ASC_AIS_BENCH).parent_path() / "ais-bench";
  CHECK(std::filesystem::is_symlink(alias));
  CHECK(run("'" + alias.string() + "' --help").exit_code == 0);
}

TEST_CASE("command-line mistakes are EE5008 with exit code 15") {
  struct Case {
    std::string arguments;
    std::string expected;
  };
  const std::string model = om("add_mul").string();
  const Case cases[] = {
      {"--loop 1", "--model"},
      {("--model " + model + " --lop 2"), "did you mean '--loop'"},
      {("--model " + model + " --loop 0"), "0 is an invalid positive int value"},
      {("--model " + model + " --warmup_count -1"), "is an invalid nonnegative int value"},
      {("--model " + model + " --outfmt CSV"), "NPY"},
      {("--model " + model + " --output_dirname x"), "cann't be used alone"},
      {("--model " + model + " --output /tmp --profiler 1 --dump 1"), "--profiler cannot be true"},
      {("--model " + model + " --dump true"), "miss output path"},
      {("--model " + model + " --dymBatch 2 --dymHW 4,4"), "not several"},
  };
  for (const Case& c : cases) {
    const CommandResult result = ais_bench(c.arguments);
    INFO(c.arguments, "\n", result.err);
    CHECK(result.exit_code == 15);
    CHECK(result.err.find("[ERROR] EE5008") != std::string::npos);
    CHECK(result.err.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("msit benchmark's spellings are accepted: -om, --loop, --warmup-count, --output-dirname") {
  TempDir dir;
  const CommandResult result = ais_bench("-om " + om("add_mul").string() + " --loop 2 --warmup-count 0 -o " +
                                         dir.path().string() + " --output-dirname run");
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(std::filesystem::exists(dir / "run_summary.json"));
}
