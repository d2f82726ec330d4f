// The JSON report of the ResNet fixture against values computed by hand from the fixture rows
// (see tests/profiler/data/README.md for the rows' numbers).
#include <doctest/doctest.h>

#include "analysis/model_trade_profiler.hpp"
#include "msprof/msprof_reader.hpp"
#include "test_support.hpp"

using namespace profiler_test;
using Json = nlohmann::ordered_json;

namespace {

Json report_of(const fs::path& report) {
  const auto profile = asc::profiler::read_msprof_profile(report);
  return Json::parse(asc::profiler::ModelTradeProfiler()
                         .analyse(profile.trace, asc::profiler::source_section(profile))
                         .json_report);
}

const Json* type_entry(const Json& report, const std::string& type) {
  for (const Json& entry : report.at("op_type_statistics"))
    if (entry.at("op_type") == type) return &entry;
  return nullptr;
}

}  // namespace

TEST_CASE("the seed's schema comes first, exactly") {
  const Json report = report_of(block_dim_prof_dir());
  std::vector<std::string> keys;
  for (const auto& [key, value] : report.items()) keys.push_back(key);
  REQUIRE(keys.size() >= 4);
  CHECK(keys[0] == "model_name");
  CHECK(keys[1] == "soc_version");
  CHECK(keys[2] == "total_time");
  CHECK(keys[3] == "op_summary");
  for (const Json& op : report.at("op_summary")) {
    std::vector<std::string> fields;
    for (const auto& [key, value] : op.items()) fields.push_back(key);
    CHECK(fields ==
          std::vector<std::string>{"op_name", "op_type", "device_time", "memory_copy_time", "ratio"});
  }
  CHECK(report.at("model_name") == "unknown");
  CHECK(report.at("soc_version") == "unknown");
}

TEST_CASE("totals, ranking and ratios match the hand computation") {
  for (const fs::path& dir : {block_dim_prof_dir(), block_num_parent_dir()}) {
    CAPTURE(dir);
    const Json report = report_of(dir);
    // 12 + 85.5 + 20.25 + 30 + 30.5 + 6.25 + 28 + 14 + 27.75 + 120 + 5.5 + 3 + 9.75 + 4.5 + 18
    CHECK(report.at("total_time").get<double>() == doctest::Approx(415.0));
    // MTE2 + MTE3 times of the 14 AI Core rows; the AI CPU row has no PMU data.
    CHECK(report.at("memory_copy_time").get<double>() == doctest::Approx(172.25));
    CHECK(report.at("compute_time_ratio").get<double>() == doctest::Approx(242.75 / 415.0).epsilon(1e-6));
    CHECK(report.at("operator_count") == 15);
    CHECK(report.at("task_count") == 15);

    const Json& ops = report.at("op_summary");
    REQUIRE(ops.size() == 15);
    double ratio_sum = 0, previous = 1e300;
    for (const Json& op : ops) {
      CHECK(op.at("device_time").get<double>() <= previous);
      previous = op.at("device_time").get<double>();
      ratio_sum += op.at("ratio").get<double>();
    }
    CHECK(ratio_sum == doctest::Approx(1.0).epsilon(1e-5));
    CHECK(ops[0].at("op_name") == "layer4.1.conv2");
    CHECK(ops[0].at("device_time").get<double>() == doctest::Approx(120.0));
    CHECK(ops[0].at("memory_copy_time").get<double>() == doctest::Approx(70.0));
    CHECK(ops[0].at("ratio").get<double>() == doctest::Approx(120.0 / 415.0).epsilon(1e-6));
    CHECK(ops[1].at("op_name") == "conv1");
    CHECK(ops[14].at("op_name") == "fc_TransData");
    CHECK(ops[14].at("device_time").get<double>() == doctest::Approx(3.0));

    // 120 + 85.5 + 30.5 + 30 + 28
    CHECK(report.at("top_operators").at("share").get<double>() ==
          doctest::Approx(294.0 / 415.0).epsilon(1e-6));

    const Json* conv = type_entry(report, "Conv2D");
    REQUIRE(conv != nullptr);
    CHECK(conv->at("count") == 7);
    CHECK(conv->at("total_time").get<double>() == doctest::Approx(335.75));
    CHECK(conv->at("mean_time").get<double>() == doctest::Approx(47.964));  // 335.75 / 7, to the ns
    CHECK(conv->at("max_time").get<double>() == doctest::Approx(120.0));
    CHECK(conv->at("min_time").get<double>() == doctest::Approx(14.0));
    CHECK(conv->at("ratio").get<double>() == doctest::Approx(335.75 / 415.0).epsilon(1e-6));
    CHECK(report.at("op_type_statistics")[0].at("op_type") == "Conv2D");
    const Json* transdata = type_entry(report, "TransData");
    REQUIRE(transdata != nullptr);
    CHECK(transdata->at("count") == 2);
    CHECK(transdata->at("total_time").get<double>() == doctest::Approx(15.0));

    CHECK(report.at("memory_copy_basis").at("pmu_time") == 14);
    CHECK(report.at("memory_copy_basis").at("none") == 1);
  }
}

TEST_CASE("pipe utilisation is time-weighted over the tasks that report each pipe") {
  const Json old_gen = report_of(block_dim_prof_dir()).at("pipe_utilization");
  const Json new_gen = report_of(block_num_parent_dir()).at("pipe_utilization");
  // sum(mte2_ratio x duration) over the 14 AI Core rows = 160.44; their durations sum to 397.
  CHECK(old_gen.at("mte2").get<double>() == doctest::Approx(160.44 / 397).epsilon(1e-6));
  CHECK(new_gen.at("mte2").get<double>() == doctest::Approx(160.44 / 397).epsilon(1e-6));
  CHECK(old_gen.at("coverage").get<double>() == doctest::Approx(397.0 / 415).epsilon(1e-6));
  CHECK(new_gen.at("coverage").get<double>() == doctest::Approx(397.0 / 415).epsilon(1e-6));
  // sum(mac_ratio x duration) of the cube rows = 123.3875. The coupled-core header reports mac 0
  // on vector rows (weight 397); the split-core one has no aic_ columns there (weight 345.5).
  CHECK(old_gen.at("mac").get<double>() == doctest::Approx(123.3875 / 397).epsilon(1e-6));
  CHECK(new_gen.at("mac").get<double>() == doctest::Approx(123.3875 / 345.5).epsilon(1e-6));
  CHECK(old_gen.at("fixpipe").is_null());
  CHECK(new_gen.at("fixpipe").get<double>() == doctest::Approx(0.1));
}

TEST_CASE("health table and timeline of the fixture") {
  const Json report = report_of(block_dim_prof_dir());
  const Json& timeline = report.at("timeline");
  CHECK(timeline.at("origin").get<double>() == 1710466215120000.0);
  CHECK(timeline.at("span").get<double>() == doctest::Approx(468.0));  // argmax ends at 450 + 18
  CHECK(timeline.at("start_times") == "measured");
  REQUIRE(timeline.at("lanes").size() == 2);
  CHECK(timeline.at("lanes")[0].at("name") == "Stream 2 / AI Core");
  CHECK(timeline.at("lanes")[0].at("tasks") == 14);
  CHECK(timeline.at("lanes")[1].at("name") == "Stream 2 / AI CPU");

  std::map<std::string, Json> health;
  for (const Json& check : report.at("health")) health[check.at("metric").get<std::string>()] = check;
  REQUIRE(health.size() == 4);
  // AI Core rows run back to back with 2 us gaps: busy 397 us of the 468 us span.
  CHECK(health["ai_core_utilization"].at("value").get<double>() ==
        doctest::Approx(397.0 / 468).epsilon(1e-6));
  CHECK(health["ai_core_utilization"].at("status") == "healthy");
  // 13 gaps of 2 us and one of 27 us: the median is 2 us.
  CHECK(health["kernel_launch_interval"].at("value").get<double>() == doctest::Approx(2.0));
  CHECK(health["kernel_launch_interval"].at("status") == "healthy");
  CHECK(health["ddr_bandwidth_utilization"].at("status") == "not measured");
  CHECK(health["ddr_bandwidth_utilization"].at("value").is_null());
  CHECK(health["ub_hit_rate"].at("status") == "not measured");

  const Json& tasks = report.at("tasks");
  REQUIRE(tasks.size() == 15);
  CHECK(tasks[1].at("op_name") == "conv1");
  CHECK(tasks[1].at("start_time").get<double>() == doctest::Approx(14.0));
  CHECK(tasks[1].at("category") == "cube");
  CHECK(tasks[1].at("memory_copy_basis") == "pmu_time");
  CHECK(tasks[0].at("category") == "data_movement");
  CHECK(tasks[14].at("category") == "aicpu");
}

TEST_CASE("the fixture fires the rules its numbers call for, and no others") {
  const Json report = report_of(block_dim_prof_dir());
  std::map<std::string, bool> fired;
  for (const Json& rule : report.at("rules"))
    fired[rule.at("id").get<std::string>()] = rule.at("fired").get<bool>();
  CHECK(fired.size() == 9);
  CHECK(fired["top_operators"]);                 // 70.8% >= 70%
  CHECK(fired["bandwidth_bound"]);               // 0.585 < 0.6
  CHECK(fired["cube_batch_alignment"]);          // batch 1
  CHECK_FALSE(fired["data_movement"]);           // TransData 15 us = 3.6%
  CHECK_FALSE(fired["conv_channel_alignment"]);  // NC1HWC0 inputs: C cannot be judged
  CHECK_FALSE(fired["type_outlier"]);            // 120 < 3 x 47.96
  CHECK_FALSE(fired["memory_bound_pipes"]);
  CHECK_FALSE(fired["small_matmul"]);
  CHECK_FALSE(fired["health_table"]);
  const auto bandwidth = advice_of(report, "bandwidth_bound");
  REQUIRE(bandwidth.size() == 1);
  const std::string message = bandwidth[0].at("message");
  CHECK(message.find("0.585") != std::string::npos);
  CHECK(message.find("415.00 us") != std::string::npos);
  CHECK(message.find("172.25 us") != std::string::npos);
  CHECK(message.find("layer4.1.conv2 (Conv2D) 70.00 us") != std::string::npos);
}

TEST_CASE("every top-level field is documented in the report itself, and the source is recorded") {
  const Json report = report_of(block_num_parent_dir());
  const Json& fields = report.at("fields");
  for (const auto& [key, value] : report.items()) {
    const std::string label = key;
    INFO(label);
    CHECK(fields.contains(key) == (key != "fields"));
  }
  for (const char* field : {"op_summary[].op_name", "op_summary[].op_type", "op_summary[].device_time",
                            "op_summary[].memory_copy_time", "op_summary[].ratio"})
    CHECK(fields.contains(field));
  for (const auto& [pipe, value] : report.at("pipe_utilization").items())
    CHECK(fields.contains("pipe_utilization." + pipe));
  const Json& source = report.at("source");
  CHECK(source.at("block_column") == "Block Num");
  CHECK(source.at("pmu_columns") == "aic_/aiv_ prefixed");
  CHECK(source.at("files")[0].at("role") == "op_summary");
  CHECK(source.at("files")[0].at("records") == 15);
}

TEST_CASE("a profile without start times is laid end to end and says so") {
  auto a = task("a", "Add", 10), b = task("b", "Mul", 20), c = task("c", "Add", 5);
  b.wait_us = 4;
  const Json report = analyse(trace_of({a, b, c}));
  CHECK(report.at("timeline").at("start_times").get<std::string>().find("not measured") == 0);
  CHECK(report.at("tasks")[1].at("start_time").get<double>() == doctest::Approx(14.0));
  CHECK(report.at("tasks")[2].at("start_time").get<double>() == doctest::Approx(34.0));
  CHECK(report.at("model_name") == "test_model");
  CHECK(report.at("soc_version") == "Ascend310P3");
}

TEST_CASE("repeated executions of an operator are summed in op_summary") {
  const Json report =
      analyse(trace_of({task("a", "Add", 10, 0), task("b", "Mul", 30, 10), task("a", "Add", 15, 40)}));
  const Json& ops = report.at("op_summary");
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].at("op_name") == "b");
  CHECK(ops[1].at("device_time").get<double>() == doctest::Approx(25.0));
  CHECK(ops[1].at("ratio").get<double>() == doctest::Approx(25.0 / 55));
  CHECK(report.at("task_count") == 3);
}
