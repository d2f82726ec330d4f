// Each analysis rule with a profile that triggers it and one that does not. Expected numbers in
// the messages are computed by hand from the events built here.
#include <doctest/doctest.h>

#include "test_support.hpp"

using namespace profiler_test;
using Json = nlohmann::ordered_json;

namespace {

asc::ProfileEvent with_shapes(asc::ProfileEvent event, std::string inputs, std::string formats,
                              std::string outputs = "", std::string dtypes = "FLOAT16") {
  event.input_shapes = std::move(inputs);
  event.input_formats = std::move(formats);
  event.output_shapes = std::move(outputs);
  event.input_dtypes = std::move(dtypes);
  return event;
}

std::string only_message(const Json& report, const std::string& rule) {
  const auto advice = advice_of(report, rule);
  REQUIRE(advice.size() == 1);
  return advice[0].at("message").get<std::string>();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("top_operators: fires when 5 operators hold >= 70% of device time") {
  const Json hit = analyse(trace_of({task("big", "Conv2D", 50), task("b", "Add", 10), task("c", "Add", 10),
                                     task("d", "Add", 10), task("e", "Add", 10), task("f", "Add", 1)}));
  const std::string message = only_message(hit, "top_operators");
  CHECK(contains(message, "98.9%"));  // 90 of 91 us
  CHECK(contains(message, "big (Conv2D) 54.9%"));

  std::vector<asc::ProfileEvent> even;
  for (int i = 0; i < 10; ++i) even.push_back(task("op" + std::to_string(i), "Add", 10));
  CHECK(advice_of(analyse(trace_of(even)), "top_operators").empty());  // 50%
  CHECK(advice_of(analyse(trace_of({task("a", "Add", 1), task("b", "Add", 1)})), "top_operators").empty());
}

TEST_CASE("bandwidth_bound: compute_time_ratio below 0.6") {
  auto a = task("a", "Conv2D", 100), b = task("b", "Conv2D", 100, 100);
  a.memory_copy_us = 60;
  b.memory_copy_us = 60;
  const Json hit = analyse(trace_of({a, b}));
  CHECK(hit.at("compute_time_ratio").get<double>() == doctest::Approx(0.4));
  const std::string message = only_message(hit, "bandwidth_bound");
  CHECK(contains(message, "0.400"));
  CHECK(contains(message, "memory_copy_time 120.00 us"));
  a.memory_copy_us = b.memory_copy_us = 30;
  const Json miss = analyse(trace_of({a, b}));
  CHECK(miss.at("compute_time_ratio").get<double>() == doctest::Approx(0.7));
  CHECK(advice_of(miss, "bandwidth_bound").empty());
}

TEST_CASE("data_movement: Reshape/Transpose-type operators above 40% are listed") {
  const Json hit =
      analyse(trace_of({task("t1", "Transpose", 50), task("r1", "Reshape", 10), task("c1", "Conv2D", 40)}));
  const std::string message = only_message(hit, "data_movement");
  CHECK(contains(message, "60.0%"));
  CHECK(contains(message, "Transpose x1 50.00 us"));
  CHECK(contains(message, "r1 (Reshape)"));
  CHECK(advice_of(analyse(trace_of({task("t1", "Transpose", 30), task("c1", "Conv2D", 70)})), "data_movement")
            .empty());
}

TEST_CASE("conv_channel_alignment: input channels not a multiple of 16 and the padding waste") {
  const auto conv =
      with_shapes(task("conv1", "Conv2D", 80), "1,3,224,224;64,3,7,7", "NCHW;NCHW", "1,64,112,112");
  const std::string message =
      only_message(analyse(trace_of({conv, task("add", "Add", 20)})), "conv_channel_alignment");
  CHECK(contains(message, "conv1 (Conv2D) input 1,3,224,224: C=3 padded to 16"));
  CHECK(contains(message, "81.2%"));  // 1 - 3/16 = 0.8125
  CHECK(contains(message, "80.00 us = 80.0% of device time"));

  // NHWC takes the last dimension; int8 pads to 32.
  const auto nhwc = with_shapes(task("c", "Conv2D", 10), "1,56,56,24;3,3,24,32", "NHWC;HWCN");
  CHECK(contains(only_message(analyse(trace_of({nhwc})), "conv_channel_alignment"), "C=24 padded to 32"));
  const auto int8 =
      with_shapes(task("q", "Conv2D", 10), "1,16,28,28;32,16,3,3", "NCHW;NCHW", "", "INT8;INT8");
  CHECK(contains(only_message(analyse(trace_of({int8})), "conv_channel_alignment"), "C=16 padded to 32"));

  const auto aligned = with_shapes(task("conv2", "Conv2D", 80), "1,64,56,56;64,64,3,3", "NCHW;NCHW");
  const auto fractal =
      with_shapes(task("conv3", "Conv2D", 80), "1,1,224,224,16;49,4,16,16", "NC1HWC0;FRACTAL_Z");
  CHECK(advice_of(analyse(trace_of({aligned, fractal})), "conv_channel_alignment").empty());
}

TEST_CASE("cube_batch_alignment: batch (conv N) or M (MatMul rows) not a multiple of 16") {
  const auto conv = with_shapes(task("conv", "Conv2D", 30), "8,64,56,56;64,64,3,3", "NCHW;NCHW");
  const auto matmul = with_shapes(task("fc", "MatMul", 10), "8,2048;2048,1000", "ND;ND", "8,1000");
  const std::string message = only_message(analyse(trace_of({conv, matmul})), "cube_batch_alignment");
  CHECK(contains(message, "2 Cube operators"));
  CHECK(contains(message, "Conv2D x1, MatMul x1"));
  CHECK(contains(message, "8 (2 operators, 50.0% of the last 16-block padded)"));

  const auto conv16 = with_shapes(task("conv", "Conv2D", 30), "16,64,56,56;64,64,3,3", "NCHW;NCHW");
  const auto matmul32 = with_shapes(task("fc", "MatMul", 10), "32,2048;2048,1000", "ND;ND", "32,1000");
  CHECK(advice_of(analyse(trace_of({conv16, matmul32})), "cube_batch_alignment").empty());
}

TEST_CASE("type_outlier: a task over 3x its type's mean is named with its shapes") {
  std::vector<asc::ProfileEvent> events;
  for (int i = 0; i < 4; ++i)
    events.push_back(with_shapes(task("add" + std::to_string(i), "Add", 10), "1,64;1,64", "ND;ND"));
  events.push_back(with_shapes(task("add_big", "Add", 100), "1,65536;1,65536", "ND;ND"));
  const std::string message = only_message(analyse(trace_of(events)), "type_outlier");
  CHECK(contains(message, "add_big (Add) took 100.00 us, 3.6x the mean Add time of 28.00 us (5 tasks)"));
  CHECK(contains(message, "shapes 1,65536;1,65536"));

  events.back().duration_us = 30;  // mean 14, 30 < 42
  CHECK(advice_of(analyse(trace_of(events)), "type_outlier").empty());
}

TEST_CASE("memory_bound_pipes: MTE above 0.5 with Cube below 0.3") {
  auto conv = task("conv", "Conv2D", 100);
  conv.metrics = {{"aic_mac_ratio", 0.1}, {"aic_mte2_ratio", 0.7}};
  auto add = task("add", "Add", 100, 100);
  add.metrics = {{"aiv_vec_ratio", 0.2}, {"aiv_mte2_ratio", 0.5}, {"aiv_mte3_ratio", 0.4}};
  const Json hit = analyse(trace_of({conv, add}));
  // mte2: (0.7*100 + 0.5*100)/200 = 0.6; mac: only the conv reports it: 0.1.
  CHECK(hit.at("pipe_utilization").at("mte2").get<double>() == doctest::Approx(0.6));
  const std::string message = only_message(hit, "memory_bound_pipes");
  CHECK(contains(message, "MTE utilisation is 0.60 (mte2"));
  CHECK(contains(message, "Cube (mac) utilisation is 0.10"));
  CHECK(contains(message, "INT8"));
  CHECK(contains(message, "conv (Conv2D) MTE 0.70 / mac 0.10"));

  conv.metrics["aic_mac_ratio"] = 0.5;
  CHECK(advice_of(analyse(trace_of({conv, add})), "memory_bound_pipes").empty());
  CHECK(advice_of(analyse(trace_of({task("conv", "Conv2D", 100)})), "memory_bound_pipes")
            .empty());  // no PMU data
}

TEST_CASE("small_matmul: ten or more matrix products below 64^3 multiply-accumulates") {
  std::vector<asc::ProfileEvent> small;
  for (int i = 0; i < 10; ++i)
    small.push_back(
        with_shapes(task("q_proj_" + std::to_string(i), "MatMulV2", 5), "16,64;64,64", "ND;ND", "16,64"));
  const std::string message = only_message(analyse(trace_of(small)), "small_matmul");
  CHECK(contains(message, "10 matrix-product operators"));
  CHECK(contains(message, "[M 16, N 64, K 64]"));  // 65536 multiply-accumulates
  CHECK(contains(message, "50.00 us = 100.0% of device time"));

  // Batched and transposed-B shapes: batch 12 x 128 x 128 x 64 is large.
  std::vector<asc::ProfileEvent> large;
  for (int i = 0; i < 10; ++i)
    large.push_back(with_shapes(task("scores_" + std::to_string(i), "BatchMatMul", 5), "12,128,64;12,128,64",
                                "ND;ND", "12,128,128"));
  CHECK(advice_of(analyse(trace_of(large)), "small_matmul").empty());
  small.pop_back();
  CHECK(advice_of(analyse(trace_of(small)), "small_matmul").empty());  // only 9
}

TEST_CASE("health_table: unhealthy measured metrics become advice; unmeasured ones only say so") {
  // Busy 20 us of a 310 us span; the one gap is 290 us.
  const Json idle = analyse(trace_of({task("a", "Add", 10, 0), task("b", "Add", 10, 300)}));
  const auto advice = advice_of(idle, "health_table");
  REQUIRE(advice.size() == 2);
  CHECK(contains(advice[0].at("message"), "ai_core_utilization is 6.5%, healthy > 0.80"));
  CHECK(contains(advice[1].at("message"), "kernel_launch_interval is 290.00 us, healthy < 100 us"));

  const Json busy = analyse(trace_of({task("a", "Add", 10, 0), task("b", "Add", 10, 11)}));
  CHECK(advice_of(busy, "health_table").empty());
  std::map<std::string, std::string> status;
  for (const Json& check : busy.at("health")) status[check.at("metric")] = check.at("status");
  CHECK(status["ai_core_utilization"] == "healthy");
  CHECK(status["ub_hit_rate"] == "not measured");
  CHECK(status["ddr_bandwidth_utilization"] == "not measured");
}

TEST_CASE("health_table: DDR bandwidth needs the Memory metrics and the device peak") {
  auto a = task("a", "Conv2D", 10, 0);
  a.metrics = {{"aic_main_mem_read_bw(GB/s)", 60},
               {"aiv_main_mem_read_bw(GB/s)", 20},
               {"aic_main_mem_write_bw(GB/s)", 15}};
  const auto ddr = [](const Json& report) {
    for (const Json& check : report.at("health"))
      if (check.at("metric") == "ddr_bandwidth_utilization") return check;
    return Json();
  };
  const Json without_peak = ddr(analyse(trace_of({a})));
  CHECK(without_peak.at("status") == "not measured");
  CHECK(contains(without_peak.at("basis"), "95.00 GB/s"));
  const Json report = analyse(trace_of({a}), 100.0);
  CHECK(ddr(report).at("value").get<double>() == doctest::Approx(0.95));
  CHECK(ddr(report).at("status") == "unhealthy");
  CHECK(advice_of(report, "health_table").size() == 1);
  CHECK(ddr(analyse(trace_of({a}), 200.0)).at("status") == "healthy");
}
