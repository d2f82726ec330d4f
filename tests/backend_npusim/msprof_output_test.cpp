// The msprof-style profile directory: layout, op_summary header exactly msprof's (as listed in
// ascend_interfaces.md §2.3/§2.5), statistics and the Chrome trace lanes.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include <asc/sdk/msprof/profile_writer.hpp>
#include "npusim_support.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

namespace {

const std::string kBase =
    "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
    "Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
    "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,";
const std::string kSplitPmu =
    "aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,"
    "aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,"
    "aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),"
    "aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,"
    "memory_bound,cube_utilization(%)";
const std::string kCoupledPmu =
    "aicore_time(us),total_cycles,vec_time(us),vec_ratio,mac_time(us),mac_ratio,scalar_time(us),scalar_ratio,"
    "mte1_time(us),mte1_ratio,mte2_time(us),mte2_ratio,mte3_time(us),mte3_ratio,icache_miss_rate,memory_bound,"
    "cube_utilization(%)";

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::filesystem::path only_file(const std::filesystem::path& dir, const std::string& prefix) {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) found.push_back(entry.path());
  REQUIRE(found.size() == 1);
  return found[0];
}

std::vector<ProfileEvent> run_matmul_relu(const std::string& soc_version) {
  Graph graph = make_graph({tensor_info("a", DType::Float32, {64, 64}), tensor_info("b", DType::Float32, {64, 64})}, {"y"});
  add_node(graph, "mm", "MatMul", {"a", "b"}, {"m"});
  add_node(graph, "relu", "Relu", {"m"}, {"y"});
  std::vector<float> ones(64 * 64, 1.0f);
  EventCollector events;
  RunOptions options;
  options.profile_sink = &events;
  compile_npusim(graph, soc_version)->execute({{"a", floats({64, 64}, ones)}, {"b", floats({64, 64}, ones)}}, options);
  // Left out: the Casts force_fp16 inserts at the fp32 graph inputs and output (these tests look
  // at the MatMul and the Relu).
  std::vector<ProfileEvent> compute;
  for (const ProfileEvent& event : events.events)
    if (event.op_type != "Cast") compute.push_back(event);
  return compute;
}

}  // namespace

TEST_CASE("op_summary has msprof's columns in order: aic_/aiv_ on split SoCs, unprefixed on coupled ones") {
  for (const auto& soc_and_pmu : {std::pair{"Ascend910B2", kSplitPmu}, std::pair{"Ascend310P3", kCoupledPmu}}) {
    const char* const soc_version = soc_and_pmu.first;  // not a structured binding: clang 14 cannot capture one
    const auto& pmu = soc_and_pmu.second;
    CAPTURE(soc_version);
    TempDir dir;
    const auto prof = msprof::write_msprof_output(msprof::default_collection(dir.path()), run_matmul_relu(soc_version),
                                                  npusim::device_info(soc(soc_version)));
    CHECK(prof.filename().string().rfind("PROF_000001_", 0) == 0);
    CHECK(prof.filename().string().size() == std::string("PROF_000001_20221217075609326_GLKQJOGROQGOLIIB").size());
    const auto output = prof / "mindstudio_profiler_output";
    const std::vector<std::string> summary = lines_of(only_file(output, "op_summary_"));
    REQUIRE(summary.size() == 3);
    CHECK(summary[0] == kBase + pmu);
    CHECK(summary[1].find(",mm,MatMul,static,AI_CORE,") != std::string::npos);  // after the input Casts
    CHECK(summary[1].find("\"64,64;64,64\",FLOAT16;FLOAT16,ND;ND,\"64,64\",FLOAT16,ND") != std::string::npos);

    const std::vector<std::string> statistic = lines_of(only_file(output, "op_statistic_"));
    CHECK(statistic[0] == "Device_id,OP Type,Core Type,Count,Total Time(us),Avg Time(us),Min Time(us),Max Time(us),Ratio(%)");
    CHECK(statistic.size() == 3);

    // task_time: msprof's columns; one row per task, stop = start + duration.
    const auto events = run_matmul_relu(soc_version);
    const std::vector<std::string> tasks = lines_of(only_file(output, "task_time_"));
    CHECK(tasks[0] == "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)");
    REQUIRE(tasks.size() == 3);
    CHECK(tasks[1].rfind("0,mm,KERNEL_AICORE,0,", 0) == 0);
    CHECK(tasks[2].rfind("0,relu,KERNEL_AICORE,0,", 0) == 0);
    std::vector<std::string> fields;
    std::stringstream row(tasks[1]);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    REQUIRE(fields.size() == 8);
    const double duration = std::stod(fields[5]), start = std::stod(fields[6]), stop = std::stod(fields[7]);
    CHECK(stop == doctest::Approx(start + duration).epsilon(1e-3));
    CHECK(duration == doctest::Approx(events[0].duration_us).epsilon(1e-3));

    std::ifstream json(only_file(output, "msprof_"));
    const nlohmann::json trace = nlohmann::json::parse(json);
    int stream_tasks = 0, core_tasks = 0;
    for (const auto& event : trace)
      if (event["ph"] == "X") (event["pid"] == 0 ? stream_tasks : core_tasks) += 1;
    CHECK(stream_tasks == 2);
    CHECK(core_tasks >= 2);
    // Nothing is left behind but the PROF_ directory.
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()) == 1);
  }
}

TEST_CASE("the Relu runs on the vector cores of a split SoC, right after the MatMul") {
  const std::vector<ProfileEvent> events = run_matmul_relu("Ascend910B2");
  REQUIRE(events.size() == 2);
  CHECK(events[1].task_type == "AI_VECTOR_CORE");
  CHECK(events[1].start_us == events[0].start_us + events[0].duration_us);
  CHECK(events[0].metrics.count("aic_mac_ratio") == 1);
  CHECK(events[1].metrics.count("aiv_vec_ratio") == 1);
  // The MatMul's fp16 output is read from L2, and the Relu's output (as small) is written into it.
  CHECK(events[1].metrics.at("l2_bytes") == 2 * 64 * 64 * 2);
  CHECK(events[1].metrics.at("device_memory_bytes") == 0);
}
