// --timing_only: the simulated time depends on the shapes only, so skipping the kernels must give
// the same profile as the full run, task by task (op_summary, task_time, op_statistic), and the
// same NPU_compute_time; no output files, and no --dump.
#include <doctest/doctest.h>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

struct ProfiledRun {
  std::vector<std::vector<std::string>> op_summary, task_time, op_statistic;
  double compute_ms = 0;
};

ProfiledRun profiled_run(const std::string& model_arguments, const std::filesystem::path& dir, bool timing_only) {
  const CommandResult result = ais_bench(model_arguments + " --loop 2 --profiler 1 --output " + dir.string() +
                                         " --output_dirname o" + (timing_only ? " --timing_only 1" : ""));
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  // Simulated times come with the simulator's calibration error (configs/soc/calibration.json).
  CHECK(result.out.find("[INFO] NPU_compute_time is simulated (Ascend310P3); calibration MAE ") != std::string::npos);
  const std::filesystem::path out = only_entry(dir / "profiler", "PROF_") / "mindstudio_profiler_output";
  ProfiledRun run;
  run.op_summary = csv_rows(only_entry(out, "op_summary_"));
  run.task_time = csv_rows(only_entry(out, "task_time_"));
  run.op_statistic = csv_rows(only_entry(out, "op_statistic_"));
  run.compute_ms = read_json(dir / "o_summary.json")["NPU_compute_time"]["mean"];
  return run;
}

void check_rows_equal(const std::vector<std::vector<std::string>>& full,
                      const std::vector<std::vector<std::string>>& timing) {
  REQUIRE(full.size() == timing.size());
  for (std::size_t row = 0; row < full.size(); ++row) {
    CAPTURE(row);
    CHECK(full[row] == timing[row]);
  }
}

}  // namespace

TEST_CASE("a timing-only profile equals the full run's task by task") {
  // A fused convolution with the casts force_fp16 inserts, a two-output vector task, and a
  // dynamic-batch model run at one of its profiles.
  for (const std::string arguments : {"--model " + om("conv_relu").string(), "--model " + om("add_mul").string(),
                                      "--model " + om("dyn_relu").string() + " --dymBatch 2"}) {
    CAPTURE(arguments);
    TempDir full_dir, timing_dir;
    const ProfiledRun full = profiled_run(arguments, full_dir.path(), false);
    const ProfiledRun timing = profiled_run(arguments, timing_dir.path(), true);
    REQUIRE(full.op_summary.size() >= 3);
    check_rows_equal(full.op_summary, timing.op_summary);
    check_rows_equal(full.task_time, timing.task_time);
    check_rows_equal(full.op_statistic, timing.op_statistic);
    CHECK(timing.compute_ms == full.compute_ms);
    // The full run wrote its outputs; the timing-only one wrote none (its values are not computed).
    CHECK(!std::filesystem::is_empty(full_dir / "o"));
    CHECK(std::filesystem::is_empty(timing_dir / "o"));
  }
}

TEST_CASE("modelTrade states the calibration error of a simulated profile") {
  TempDir dir;
  const CommandResult bench = ais_bench("--model " + om("conv_relu").string() + " --timing_only 1 --profiler 1 --output " +
                                        dir.path().string() + " --output_dirname o");
  REQUIRE(bench.exit_code == 0);
  const std::filesystem::path prof = only_entry(dir / "profiler", "PROF_");
  CHECK(read_json(prof / "device_0" / "info.json.0")["timing_accuracy"].get<std::string>().rfind("calibration MAE ", 0) == 0);
  const CommandResult trade = run(std::string(ASC_MODEL_TRADE) + " --report=" + prof.string() + " --output=" +
                                  (dir / "perf.json").string());
  INFO(trade.out, trade.err);
  REQUIRE(trade.exit_code == 0);
  CHECK(trade.out.find("times simulated; calibration MAE ") != std::string::npos);
}

TEST_CASE("a SoC without published calibration points is called not calibrated, by ais_bench and modelTrade") {
  TempDir dir;
  const CommandResult bench = ais_bench("--model " + om("conv_relu_910b3").string() +
                                        " --timing_only 1 --profiler 1 --output " + dir.path().string() +
                                        " --output_dirname o");
  INFO(bench.out, bench.err);
  REQUIRE(bench.exit_code == 0);
  // configs/soc/calibration.json's points are on Ascend310 and Ascend310P3 (bench/calibration/points.yaml).
  const std::string band = "not calibrated: no published figures for Ascend910B3 (calibrated: Ascend310, Ascend310P3)";
  CHECK(bench.out.find("[INFO] NPU_compute_time is simulated (Ascend910B3); " + band) != std::string::npos);
  CHECK(bench.out.find("calibration MAE") == std::string::npos);
  const std::filesystem::path prof = only_entry(dir / "profiler", "PROF_");
  const CommandResult trade = run(std::string(ASC_MODEL_TRADE) + " --report=" + prof.string() + " --output=" +
                                  (dir / "perf.json").string());
  INFO(trade.out, trade.err);
  REQUIRE(trade.exit_code == 0);
  CHECK(trade.out.find("times simulated; " + band) != std::string::npos);
}

TEST_CASE("--timing_only with --dump is a usage error: there are no values to dump") {
  TempDir dir;
  const CommandResult result =
      ais_bench("--model " + om("conv_relu").string() + " --timing_only 1 --dump 1 --output " + dir.path().string());
  CHECK(result.exit_code == 15);
  CHECK(result.err.find("EE5008") != std::string::npos);
  CHECK(result.err.find("--timing_only") != std::string::npos);
}
