// msprof -> ais_bench -> PROF_* -> modelTrade, through the executables: the options reach the
// npusim runtime through PROFILER_SAMPLECONFIG; the copies are MEMCPY_ASYNC tasks whose times are
// the bytes over the SoC's PCIe link; a sample-based collection has op_summary without PMU
// columns and ai_core_utilization with one sample per period; modelTrade reads both; msprof's own
// errors and the application's exit status.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <cmath>
#include <set>
#include <sstream>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

CommandResult run_msprof(const std::string& arguments) { return run(std::string(ASC_MSPROF) + " " + arguments); }

std::string joined(const std::vector<std::string>& fields) {
  std::string text;
  for (const auto& field : fields) text += (text.empty() ? "" : ",") + field;
  return text;
}

const std::string kOpSummaryBase =
    "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
    "Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
    "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID";

// modelTrade on a PROF_ directory; its JSON report.
nlohmann::json model_trade(const std::filesystem::path& prof, const std::filesystem::path& dir) {
  const CommandResult result = run(std::string(ASC_MODEL_TRADE) + " --report=" + quoted(prof) +
                                   " --output=" + quoted(dir / "perf.json") + " --quiet");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  return read_json(dir / "perf.json");
}

}  // namespace

// conv_relu: input float32[1,2,4,4] = 128 bytes, output float32[1,3,4,4] = 192 bytes (the .om keeps
// float32 I/O). Ascend310P3.yaml: pcie_bandwidth_gbs 32 = 32000 bytes/us, so H2D 0.004 us and D2H
// 0.006 us.
TEST_CASE("task-based under msprof: copies are MEMCPY_ASYNC tasks of bytes / PCIe bandwidth; modelTrade reads them") {
  TempDir dir;
  const CommandResult result = run_msprof("--output=" + quoted(dir / "prof") + " --runtime-api=on " + ASC_AIS_BENCH +
                                      " --model=" + quoted(om("conv_relu")) + " --loop=2");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("NPU_compute_time") != std::string::npos);  // ais_bench ran, without --profiler
  const std::filesystem::path prof = only_entry(dir / "prof", "PROF_");
  CHECK(result.out.find("profiling data in " + prof.string()) != std::string::npos);
  const nlohmann::json sample = read_json(prof / "device_0" / "sample.json");
  CHECK(sample["runtimeApi"] == "on");
  CHECK(sample["ai_core_profiling_mode"] == "task-based");
  const std::filesystem::path output = prof / "mindstudio_profiler_output";

  const auto tasks = csv_rows(only_entry(output, "task_time_"));
  CHECK(joined(tasks[0]) == "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)");
  std::vector<std::string> copy_times;
  std::set<int> task_ids;
  for (std::size_t r = 1; r < tasks.size(); ++r) {
    task_ids.insert(std::stoi(tasks[r][4]));
    if (tasks[r][2] == "MEMCPY_ASYNC") {
      CHECK(tasks[r][1] == "MEMCPY_ASYNC");
      copy_times.push_back(tasks[r][5]);
    }
  }
  CHECK(task_ids.size() == tasks.size() - 1);  // one id per task
  // Per inference: copy in first, copy out last.
  CHECK(copy_times == std::vector<std::string>{"0.004", "0.006", "0.004", "0.006"});
  CHECK(tasks[1][2] == "MEMCPY_ASYNC");
  CHECK(tasks.back()[2] == "MEMCPY_ASYNC");

  const nlohmann::json timeline = read_json(only_entry(output, "msprof_"));
  std::vector<nlohmann::json> copies;
  for (const auto& event : timeline)
    if (event["ph"] == "X" && event["name"] == "MEMCPY_ASYNC") copies.push_back(event["args"]);
  REQUIRE(copies.size() == 4);
  CHECK(copies[0]["size(B)"] == 128);
  CHECK(copies[0]["operation"] == "host to device");
  CHECK(copies[1]["size(B)"] == 192);
  CHECK(copies[1]["operation"] == "device to host");
  CHECK(copies[0]["bandwidth(GB/s)"].get<double>() == doctest::Approx(32));

  // op_summary lists operators only, with the PMU columns of a task-based collection.
  const auto summary = csv_rows(only_entry(output, "op_summary_"));
  CHECK(joined(summary[0]).rfind(kOpSummaryBase + ",aicore_time(us),total_cycles,", 0) == 0);
  for (std::size_t r = 1; r < summary.size(); ++r) CHECK(summary[r][7] != "MEMCPY_ASYNC");
  CHECK(summary.size() - 1 + 4 == tasks.size() - 1);

  const nlohmann::json report = model_trade(prof, dir.path());
  CHECK(report["source"]["memcpy_tasks_added"] == 4);
}

TEST_CASE("sample-based under msprof: no per-task PMU, one utilisation sample per period of simulated time") {
  TempDir dir;
  // conv_relu takes about 7.6 us per inference with its copies: 4000 of them are about 30 ms of
  // simulated time, 3 to 4 periods of 10 ms.
  const CommandResult result = run_msprof("--output=" + quoted(dir.path()) + " --aic-mode=sample-based --aic-freq=100 " +
                                      ASC_AIS_BENCH + " --model=" + quoted(om("conv_relu")) + " --loop=4000");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  const std::filesystem::path prof = only_entry(dir.path(), "PROF_");
  const std::filesystem::path output = prof / "mindstudio_profiler_output";
  const auto summary = csv_rows(only_entry(output, "op_summary_"));
  CHECK(joined(summary[0]) == kOpSummaryBase);  // msprof's sample-based op_summary: no PMU columns

  // The collection: first task start to last task end (copies included).
  const auto tasks = csv_rows(only_entry(output, "task_time_"));
  double first = 1e300, last = 0;
  for (std::size_t r = 1; r < tasks.size(); ++r) {
    first = std::min(first, std::stod(tasks[r][6]));
    last = std::max(last, std::stod(tasks[r][7]));
  }
  const double seconds = (last - first) * 1e-6;
  const auto expected_samples = static_cast<std::size_t>(std::ceil(seconds * 100));
  CHECK(expected_samples >= 2);

  const auto utilization = csv_rows(only_entry(output, "ai_core_utilization_"));
  CHECK(joined(utilization[0]) ==
        "Device_id,Core ID,vec_ratio,mac_ratio,scalar_ratio,mte1_ratio,mte2_ratio,mte3_ratio,icache_miss_rate,"
        "memory_bound");
  REQUIRE(utilization.size() == 1 + 8 + 1);  // Ascend310P3's 8 AI Cores and the Average
  CHECK(utilization[1][1] == "Core0");
  CHECK(utilization[9][1] == "Average");
  CHECK(std::stod(utilization[1][3]) > 0);  // the conv's cube time on core 0

  std::size_t averages = 0;
  for (const auto& event : read_json(only_entry(output, "msprof_")))
    if (event["ph"] == "C" && event["name"] == "Average") ++averages;
  CHECK(averages == expected_samples);

  const nlohmann::json report = model_trade(prof, dir.path());
  CHECK(report["source"]["memcpy_tasks_added"] == 8000);
}

TEST_CASE("the runtime takes msprof's config from the environment; a run shorter than a period is one sample") {
  TempDir dir;
  const std::string config = R"({"result_dir":")" + dir.path().string() +
                             R"(","ai_core_profiling_mode":"sample-based","aicore_sampling_interval":10})";
  const CommandResult result = run("PROFILER_SAMPLECONFIG='" + config + "' " + ASC_AIS_BENCH + " --model=" +
                                   quoted(om("conv_relu")) + " --loop=3");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  const std::filesystem::path prof = only_entry(dir.path(), "PROF_");
  CHECK(read_json(prof / "device_0" / "sample.json")["aicore_sampling_interval"] == 10);
  // A run of a few microseconds is shorter than one period: one sample, and a warning saying so.
  std::size_t averages = 0;
  for (const auto& event : read_json(only_entry(prof / "mindstudio_profiler_output", "msprof_")))
    if (event["ph"] == "C" && event["name"] == "Average") ++averages;
  CHECK(averages == 1);
  CHECK(result.err.find("less than one 10 ms sampling period") != std::string::npos);
}

TEST_CASE("asc run with npusim.run under msprof writes the profile too, without copy tasks") {
  om("conv_relu");  // makes the test models in the fixture directory
  TempDir dir;
  const CommandResult result =
      run_msprof("--output=" + quoted(dir / "prof") + " " + ASC_EXECUTABLE + " run " + ASC_SOURCE_DIR +
             "/configs/pipelines/run_npusim.yaml --set model=" + quoted(fixture_dir() / "conv_relu.onnx") +
             " --set output_dir=" + quoted(dir / "out"));
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  const std::filesystem::path output = only_entry(dir / "prof", "PROF_") / "mindstudio_profiler_output";
  // npusim.run runs the graph as parsed (no fusion) synchronously, with no host copies: the tasks
  // are Conv and Relu and the two Casts force_fp16 puts at the input and the output.
  const auto tasks = csv_rows(only_entry(output, "task_time_"));
  REQUIRE(tasks.size() == 1 + 4);
  std::vector<std::string> kernels;
  for (std::size_t r = 1; r < tasks.size(); ++r) kernels.push_back(tasks[r][1] + "/" + tasks[r][2]);
  CHECK(kernels == std::vector<std::string>{"Cast_x_float16/KERNEL_AICORE", "conv/KERNEL_AICORE",
                                            "relu/KERNEL_AICORE", "Cast_y/KERNEL_AICORE"});
  CHECK(csv_rows(only_entry(output, "op_summary_")).size() == 1 + 4);
}

TEST_CASE("a malformed PROFILER_SAMPLECONFIG stops ais_bench with a coded error, writing nothing") {
  TempDir dir;
  const CommandResult result =
      run("PROFILER_SAMPLECONFIG='{\"result_dir\":\"" + dir.path().string() +
          "\",\"ai_core_profiling_mode\":\"every-task\"}' " + ASC_AIS_BENCH + " --model=" + quoted(om("conv_relu")));
  CHECK(result.exit_code == 15);
  CHECK(result.err.find("EE5007") != std::string::npos);
  CHECK(result.err.find("ai_core_profiling_mode") != std::string::npos);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("msprof's own errors: exit 15 for a bad command line, 14 for a missing application") {
  const CommandResult bad_mode = run_msprof("--aic-mode=sampled " + std::string(ASC_AIS_BENCH));
  CHECK(bad_mode.exit_code == 15);
  CHECK(bad_mode.err.find("EE5008") != std::string::npos);
  CHECK(bad_mode.err.find("--aic-mode") != std::string::npos);
  const CommandResult bad_freq = run_msprof("--aic-freq=200 " + std::string(ASC_AIS_BENCH));
  CHECK(bad_freq.exit_code == 15);
  CHECK(bad_freq.err.find("valid value range is [1, 100]") != std::string::npos);
  const CommandResult metrics = run_msprof("--aic-metrics=MemoryUB " + std::string(ASC_AIS_BENCH));
  CHECK(metrics.exit_code == 15);
  CHECK(metrics.err.find("EE5007") != std::string::npos);
  const CommandResult missing = run_msprof("./no_such_application --x");
  CHECK(missing.exit_code == 14);
  CHECK(missing.err.find("EE4001") != std::string::npos);
  const CommandResult none = run_msprof("--output=.");
  CHECK(none.exit_code == 15);
  CHECK(none.err.find("no application") != std::string::npos);
  const CommandResult help = run_msprof("--help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("usage: msprof") != std::string::npos);
}

TEST_CASE("msprof returns the application's exit status and says when no profile was written") {
  TempDir dir;
  const CommandResult result = run_msprof("--output=" + quoted(dir.path()) + " /bin/sh -c 'exit 3'");
  CHECK(result.exit_code == 3);
  CHECK(result.err.find("wrote no PROF_* directory") != std::string::npos);
  // A failing ais_bench under msprof: its own coded error and exit status come through.
  const CommandResult failing = run_msprof("--output=" + quoted(dir.path()) + " " + ASC_AIS_BENCH + " --model=missing.om");
  CHECK(failing.exit_code == 14);
  CHECK(failing.err.find("EE4001") != std::string::npos);
}
