// Reading msprof directories: both op_summary header generations parse to the same tasks, the
// directory forms --report accepts, task_time / msprof json supplements, and the errors.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>

#include "analysis/memory_copy.hpp"
#include "analysis/pmu_metrics.hpp"
#include "msprof/msprof_reader.hpp"
#include "test_support.hpp"

using namespace profiler_test;
using asc::profiler::read_msprof_profile;

namespace {

asc::ErrorCode code_of(const fs::path& report, std::string& message) {
  try {
    read_msprof_profile(report);
  } catch (const asc::Error& error) {
    message = error.message();
    return error.code();
  }
  return asc::ErrorCode::Internal;
}

constexpr double kOrigin = 1710466215120000.0;

}  // namespace

TEST_CASE("both header generations of the ResNet fixture parse to the same tasks") {
  const auto old_gen = read_msprof_profile(block_dim_prof_dir());
  const auto new_gen = read_msprof_profile(block_num_parent_dir());
  CHECK(old_gen.block_column == "Block Dim");
  CHECK(new_gen.block_column == "Block Num");
  CHECK(old_gen.pmu_naming == "unprefixed");
  CHECK(new_gen.pmu_naming == "aic_/aiv_ prefixed");
  CHECK(old_gen.start_times == "op_summary Task Start Time(us)");
  REQUIRE(old_gen.trace.events.size() == 15);
  REQUIRE(new_gen.trace.events.size() == 15);
  for (std::size_t i = 0; i < 15; ++i) {
    const auto& a = old_gen.trace.events[i];
    const auto& b = new_gen.trace.events[i];
    CAPTURE(a.op_name);
    CHECK(a.op_name == b.op_name);
    CHECK(a.op_type == b.op_type);
    CHECK(a.stream_id == b.stream_id);
    CHECK(a.task_id == b.task_id);
    CHECK(a.block_dim == b.block_dim);
    CHECK(a.start_us == b.start_us);
    CHECK(a.duration_us == b.duration_us);
    CHECK(a.wait_us == b.wait_us);
    CHECK(a.input_shapes == b.input_shapes);
    CHECK(a.input_dtypes == b.input_dtypes);
    CHECK(a.input_formats == b.input_formats);
    CHECK(a.output_shapes == b.output_shapes);
    CHECK(asc::profiler::memory_copy_of(a).us == doctest::Approx(asc::profiler::memory_copy_of(b).us));
    CHECK(asc::profiler::pipe_ratio(a, "mte2").has_value() ==
          asc::profiler::pipe_ratio(b, "mte2").has_value());
    if (asc::profiler::pipe_ratio(a, "mte2"))
      CHECK(*asc::profiler::pipe_ratio(a, "mte2") == doctest::Approx(*asc::profiler::pipe_ratio(b, "mte2")));
  }
  // Values as written in the fixture (hand-made rows).
  const auto& conv1 = old_gen.trace.events[1];
  CHECK(conv1.op_name == "conv1");
  CHECK(conv1.op_type == "Conv2D");
  CHECK(conv1.task_type == "AI_CORE");
  CHECK(conv1.stream_id == 2);
  CHECK(conv1.task_id == 4);
  CHECK(conv1.block_dim == 8);
  CHECK(conv1.start_us == kOrigin + 14.0);
  CHECK(conv1.duration_us == 85.5);
  CHECK(conv1.wait_us == 2.0);
  CHECK(conv1.input_shapes == "1,1,224,224,16;49,4,16,16;64");
  CHECK(conv1.input_formats == "NC1HWC0;FRACTAL_Z;ND");
  CHECK(conv1.metrics.at("mac_ratio") == 0.4);
  CHECK(conv1.metrics.at("mte2_time(us)") == 20.0);
  CHECK(new_gen.trace.events[1].metrics.at("aic_mac_ratio") == 0.4);
  CHECK(new_gen.trace.events[0].task_type == "AI_VECTOR_CORE");
  // The AI CPU task has N/A PMU columns: no metrics at all.
  CHECK(old_gen.trace.events[14].metrics.empty());
  CHECK(new_gen.trace.events[14].metrics.empty());
  CHECK(old_gen.trace.events[14].input_shapes == "1,1000;");
}

TEST_CASE("--report accepts the PROF dir, its output dir, a parent of one PROF, or the CSV") {
  const fs::path output_dir = block_dim_prof_dir() / "mindstudio_profiler_output";
  const fs::path csv = output_dir / "op_summary_20240315093015123.csv";
  for (const fs::path& report : {block_dim_prof_dir(), output_dir, block_dim_prof_dir().parent_path(), csv}) {
    CAPTURE(report);
    const auto profile = read_msprof_profile(report);
    CHECK(profile.trace.events.size() == 15);
    CHECK(profile.directory == output_dir);
  }
}

TEST_CASE("the older layout device_<id>/summary is found") {
  TempDir dir;
  dir.write("PROF_000001_20200101000000000_AAAAAAAAAAAAAAAA/device_0/summary/op_summary_0_1.csv",
            "Op Name,OP Type,Task Duration(us)\nconv,Conv2D,5\n");
  CHECK(read_msprof_profile(dir.path()).trace.events.size() == 1);
}

TEST_CASE("a missing directory is EE4001; no op_summary is EE5007 saying where it looked") {
  std::string message;
  CHECK(code_of("/nonexistent/profiling_output", message) == asc::ErrorCode::FileNotFound);
  CHECK(message.find("/nonexistent/profiling_output") != std::string::npos);

  TempDir dir;
  dir.write("PROF_1/mindstudio_profiler_output/op_statistic_1.csv", "x\n");
  CHECK(code_of(dir.path(), message) == asc::ErrorCode::ConfigBadValue);
  CHECK(message.find("no op_summary_*.csv") != std::string::npos);
  CHECK(message.find("mindstudio_profiler_output") != std::string::npos);
  CHECK(message.find("msprof --export=on") != std::string::npos);
}

TEST_CASE("a parent with several profiles asks for one") {
  TempDir dir;
  dir.write("PROF_1/mindstudio_profiler_output/op_summary_1.csv", "Op Name,Task Duration(us)\na,1\n");
  dir.write("PROF_2/mindstudio_profiler_output/op_summary_2.csv", "Op Name,Task Duration(us)\na,1\n");
  std::string message;
  CHECK(code_of(dir.path(), message) == asc::ErrorCode::ConfigBadValue);
  CHECK(message.find("PROF_1") != std::string::npos);
  CHECK(message.find("PROF_2") != std::string::npos);
}

TEST_CASE("malformed op_summary rows are EE4004 with file:line") {
  TempDir dir;
  const fs::path csv = dir.write("out/op_summary_1.csv",
                                 "Op Name,OP Type,Task Duration(us),Input Shapes\n"
                                 "conv1,Conv2D,10.5,\"1,3,224,224\"\n"
                                 "conv2,Conv2D,abc,\"1,64,56,56\"\n");
  std::string message;
  CHECK(code_of(dir.path() / "out", message) == asc::ErrorCode::FileFormatInvalid);
  CHECK(message.find(csv.string() + ":3:") == 0);
  CHECK(message.find("Task Duration(us)") != std::string::npos);
  CHECK(message.find("'abc'") != std::string::npos);

  dir.write("out/op_summary_1.csv", "Op Name,OP Type,Input Shapes\nconv1,Conv2D,\"1,3\"\n");
  CHECK(code_of(dir.path() / "out", message) == asc::ErrorCode::FileFormatInvalid);
  CHECK(message.find(":1: op_summary has no 'Task Duration(us)' column") != std::string::npos);

  dir.write("out/op_summary_1.csv",
            "Op Name,OP Type,Task Duration(us),Input Shapes\nconv1,Conv2D,1,1,3,224\n");
  CHECK(code_of(dir.path() / "out", message) == asc::ErrorCode::FileFormatInvalid);
  CHECK(message.find(csv.string() + ":2:") == 0);
}

TEST_CASE("N/A durations are skipped and counted; N/A ids become -1; padded numbers are read") {
  TempDir dir;
  dir.write("op_summary_1.csv",
            "Op Name,OP Type,Task Type,Stream ID,Task ID,Task Start Time(us),Task Duration(us),Model Name\n"
            "hcom_allReduce,HcomAllReduce,COMMUNICATION,N/A,N/A,\"100.5\t\",\" 7.25 \",bert_base\n"
            "pending,Add,AI_CORE,1,1,110,N/A,bert_base\n");
  const auto profile = read_msprof_profile(dir.path());
  REQUIRE(profile.trace.events.size() == 1);
  CHECK(profile.skipped_rows == 1);
  CHECK(profile.trace.model_name == "bert_base");
  CHECK(profile.trace.events[0].stream_id == -1);
  CHECK(profile.trace.events[0].start_us == 100.5);
  CHECK(profile.trace.events[0].duration_us == 7.25);
}

TEST_CASE("start times missing from op_summary come from task_time, then msprof json") {
  TempDir dir;
  dir.write("op_summary_1.csv",
            "Op Name,OP Type,Stream ID,Task ID,Task Start Time(us),Task Duration(us),Task Wait Time(us)\n"
            "a,Add,5,1,N/A,10,0\n"
            "b,Mul,5,2,N/A,20,0\n"
            "c,Sub,5,3,N/A,5,3\n"
            "a,Add,5,1,N/A,10,0\n");
  dir.write("task_time_1.csv",
            "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)\n"
            "0,a,KERNEL_AICORE,5,1,10,1000,1010\n"
            "0,a,KERNEL_AICORE,5,1,10,2000,2010\n");
  dir.write("msprof_1.json",
            R"json({"traceEvents":[
              {"name":"b","ph":"X","pid":1,"tid":5,"ts":"1012.5","dur":20,"args":{"Physic Stream Id":5,"Task Id":2}},
              {"name":"MemcpyAsync","ph":"X","pid":1,"tid":5,"ts":1500,"dur":4,
               "args":{"Physic Stream Id":5,"Task Id":9,"Task Type":"MEMCPY_ASYNC","size(B)":602112}},
              {"name":"process_name","ph":"M","pid":1,"args":{"name":"Ascend Hardware"}}]})json");
  const auto profile = read_msprof_profile(dir.path());
  REQUIRE(profile.trace.events.size() == 5);
  CHECK(profile.trace.events[0].start_us == 1000);
  CHECK(profile.trace.events[1].start_us == 1012.5);
  // c has no timing anywhere: it follows b (ends 1032.5) after its 3 us wait.
  CHECK(profile.trace.events[2].start_us == 1035.5);
  CHECK(profile.trace.events[3].start_us == 2000);
  const auto& copy = profile.trace.events[4];
  CHECK(copy.op_type == "MemcpyAsync");
  CHECK(copy.task_type == "MEMCPY_ASYNC");
  CHECK(copy.start_us == 1500);
  CHECK(copy.duration_us == 4);
  CHECK(copy.metrics.at("size(B)") == 602112);
  CHECK(profile.memcpy_tasks_added == 1);
  CHECK(profile.start_times.find("2 from task_time, 1 from msprof json, 1 placed after") !=
        std::string::npos);
  CHECK(profile.files.size() == 3);
}

TEST_CASE("a broken msprof json is noted and skipped; a broken task_time is an error") {
  TempDir dir;
  dir.write("op_summary_1.csv", "Op Name,Task Duration(us)\na,1\n");
  dir.write("msprof_1.json", "[{\"ph\":");
  const auto profile = read_msprof_profile(dir.path());
  REQUIRE(profile.files.size() == 2);
  CHECK(profile.files[1].note.find("ignored") == 0);

  dir.write("task_time_1.csv", "stream_id,task_id,task_start(us)\n1,2,x\n");
  std::string message;
  CHECK(code_of(dir.path(), message) == asc::ErrorCode::FileFormatInvalid);
  CHECK(message.find("task_time_1.csv:2:") != std::string::npos);
}

TEST_CASE("read_msprof_files reads the texts it is given; a timeline it cannot get is noted and skipped") {
  asc::profiler::MsprofFiles files;
  files.directory = "in_memory";
  files.op_summary = {"in_memory/op_summary_1.csv"};
  files.task_time = {"in_memory/task_time_1.csv"};
  files.timeline_json = {"in_memory/msprof_1.json"};
  const auto text_of = [](const fs::path& path) -> std::string {
    if (path.filename() == "op_summary_1.csv") return "Op Name,Stream ID,Task ID,Task Duration(us)\na,5,1,10\n";
    if (path.filename() == "task_time_1.csv")
      return "stream_id,task_id,task_start(us),task_time(us)\n5,1,1000,10\n";
    throw asc::Error(asc::ErrorCode::FileNotFound, path.string() + " is not there");
  };
  const auto profile = asc::profiler::read_msprof_files(files, text_of);
  REQUIRE(profile.trace.events.size() == 1);
  CHECK(profile.trace.events[0].start_us == 1000);  // from task_time
  REQUIRE(profile.files.size() == 3);
  CHECK(profile.files[2].note == "ignored: in_memory/msprof_1.json is not there");
  CHECK(!profile.profiled);  // info.json is read_msprof_profile's, from the disk
}

TEST_CASE("an op_summary without any task row is EE5007") {
  TempDir dir;
  dir.write("op_summary_1.csv", "Op Name,Task Duration(us)\n");
  std::string message;
  CHECK(code_of(dir.path(), message) == asc::ErrorCode::ConfigBadValue);
  CHECK(message.find("nothing to analyse") != std::string::npos);
}

TEST_CASE("info.json names the model and SoC profiled (the NPU simulator's), found from any --report form") {
  TempDir dir;
  const fs::path prof = dir.path() / "PROF_000001_20261201000000000_ABCDEFGHIJKLMNOP";
  fs::copy(block_dim_prof_dir(), prof, fs::copy_options::recursive);
  dir.write(prof.filename().string() + "/device_0/info.json.0",
            R"({"version": "1.0", "devices": "0", "DeviceInfo": [{"id": 0, "ai_core_num": 8}],
                "soc_version": "Ascend310P3",
                "model": {"name": "resnet50", "precision_mode": "force_fp16", "batch": 4}})");
  for (const fs::path& report : {prof, prof / "mindstudio_profiler_output", dir.path()}) {
    INFO(report);
    const auto profile = read_msprof_profile(report);
    CHECK(profile.trace.model_name == "resnet50");
    CHECK(profile.trace.soc_version == "Ascend310P3");
    REQUIRE(profile.profiled);
    CHECK(profile.profiled->precision_mode == "force_fp16");
    CHECK(profile.profiled->batch == 4);
    const auto source = asc::profiler::source_section(profile);
    CHECK(source.at("profiled_model").at("batch") == 4);
  }
}

TEST_CASE("a malformed or model-less info.json leaves the model and SoC unnamed") {
  TempDir dir;
  const fs::path prof = dir.path() / "PROF_000001_20261201000000000_ABCDEFGHIJKLMNOP";
  fs::copy(block_dim_prof_dir(), prof, fs::copy_options::recursive);
  dir.write(prof.filename().string() + "/device_0/info.json.0", "{\"DeviceInfo\": [");
  // Real msprof's info.json: device facts only.
  dir.write(prof.filename().string() + "/device_1/info.json.1", R"({"DeviceInfo": [{"id": 1}]})");
  const auto profile = read_msprof_profile(prof);
  CHECK(profile.trace.model_name.empty());
  CHECK(profile.trace.soc_version.empty());
  CHECK_FALSE(profile.profiled);
}
