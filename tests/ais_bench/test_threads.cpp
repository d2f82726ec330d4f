// How many host threads ais_bench gives the functional emulation: --threads wins over
// $ASC_NUM_THREADS, which wins over the cores the process may run on. _summary.json's
// host_threads records the number used.
#include <doctest/doctest.h>

#include <string>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc::test;

namespace {

// ais_bench on conv_relu with `prefix` before the program (environment, taskset) and `flags`
// after it; the host_threads of its summary (-1 when the run failed).
int host_threads(const std::string& prefix, const std::string& flags, CommandResult* result_out = nullptr) {
  TempDir dir;
  const CommandResult result = run(prefix + " " + std::string(ASC_AIS_BENCH) + " --model " + om("conv_relu").string() +
                                   " --output " + dir.path().string() + " --output_dirname o " + flags);
  if (result_out != nullptr) *result_out = result;
  if (result.exit_code != 0) return -1;
  return read_json(dir / "o_summary.json").at("host_threads").get<int>();
}

// The CPU count `nproc` reports for a process started with `prefix` (nproc honours the affinity
// mask, as ais_bench's default does).
int nproc_under(const std::string& prefix) {
  const CommandResult result = run(prefix + " nproc");
  REQUIRE(result.exit_code == 0);
  return std::stoi(result.out);
}

}  // namespace

TEST_CASE("without --threads or ASC_NUM_THREADS every core the process may use is used") {
  const std::string unset = "env -u ASC_NUM_THREADS";
  CHECK(host_threads(unset, "") == nproc_under(unset));
  CHECK(host_threads(unset + " taskset -c 0", "") == 1);  // the affinity mask, not the machine
}

TEST_CASE("ASC_NUM_THREADS sets the default and --threads wins over it") {
  CHECK(host_threads("env ASC_NUM_THREADS=3", "") == 3);
  CHECK(host_threads("env ASC_NUM_THREADS=3", "--threads 2") == 2);
  CHECK(host_threads("env -u ASC_NUM_THREADS", "--threads 5") == 5);
}

TEST_CASE("a bad ASC_NUM_THREADS is EE5007 naming the variable, exit code 15") {
  for (const char* value : {"abc", "0", "-2", "2x"}) {
    CAPTURE(value);
    CommandResult result;
    CHECK(host_threads(std::string("env ASC_NUM_THREADS=") + value, "", &result) == -1);
    CHECK(result.exit_code == 15);
    CHECK(result.err.find("EE5007") != std::string::npos);
    CHECK(result.err.find("ASC_NUM_THREADS") != std::string::npos);
  }
  // An explicit --threads does not read the variable at all.
  CHECK(host_threads("env ASC_NUM_THREADS=abc", "--threads 1") == 1);
}
