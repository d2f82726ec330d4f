// The HTML report and the Chrome trace, rendered from the fixture's JSON report, and where each
// report format is written.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>
#include <regex>

#include "analysis/model_trade_profiler.hpp"
#include "msprof/msprof_reader.hpp"
#include "render/chrome_trace.hpp"
#include "render/html_report.hpp"
#include "stage/report_paths.hpp"
#include "test_support.hpp"

using namespace profiler_test;
using Json = nlohmann::ordered_json;

namespace {

Json fixture_report() {
  const auto profile = asc::profiler::read_msprof_profile(block_num_parent_dir());
  return Json::parse(asc::profiler::ModelTradeProfiler()
                         .analyse(profile.trace, asc::profiler::source_section(profile))
                         .json_report);
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("the HTML report holds the bar charts, the timeline lanes and every task bar") {
  const Json report = fixture_report();
  const std::string html = asc::profiler::render_html_report(report);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("class='chart top-ops'") != std::string::npos);
  CHECK(html.find("class='chart types'") != std::string::npos);
  CHECK(html.find("class='chart pipes'") != std::string::npos);
  // Top operators: 15 operators, two segments each (compute, memory copy); 7 pipes; per-type bars.
  const std::size_t type_count = report.at("op_type_statistics").size();
  CHECK(count(html, "<rect class='bar'") == 15 * 2 + type_count + 7);
  // Split-core profile: Stream 2 has AI Core, AI Vector Core and AI CPU lanes.
  CHECK(html.find(">Stream 2 / AI Core (8)</text>") != std::string::npos);
  CHECK(html.find(">Stream 2 / AI Vector Core (6)</text>") != std::string::npos);
  CHECK(html.find(">Stream 2 / AI CPU (1)</text>") != std::string::npos);
  CHECK(count(html, "<rect class='task'") == 15);
  // conv1 starts 14 us into the 468 us span: x = 14 / 468 * 960.
  CHECK(html.find("data-s='14.000' data-d='85.500' x='28.72'") != std::string::npos);
  CHECK(html.find("conv1 (Conv2D): start 14.00 us, end 99.50 us, 85.50 us") != std::string::npos);
  // Advice, health table and field definitions are on the page.
  CHECK(html.find("bandwidth_bound") != std::string::npos);
  CHECK(html.find("kernel_launch_interval") != std::string::npos);
  CHECK(html.find("op_summary[].memory_copy_time") != std::string::npos);
  // Self-contained: nothing is fetched.
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(std::regex_search(html, std::regex("https?://(?!www\\.w3\\.org/2000/svg)")) == false);
}

TEST_CASE("names are escaped in the HTML") {
  Json report = fixture_report();
  report["model_name"] = "<script>alert(1)</script>";
  const std::string html = asc::profiler::render_html_report(report);
  CHECK(html.find("<script>alert(1)") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(1)") != std::string::npos);
}

TEST_CASE("the Chrome trace has one complete event per task, a process per stream and a thread per lane") {
  const Json report = fixture_report();
  const Json trace = Json::parse(asc::profiler::chrome_trace(report).dump());
  const Json& events = trace.at("traceEvents");
  std::vector<Json> complete, processes, threads;
  for (const Json& event : events) {
    if (event.at("ph") == "X") complete.push_back(event);
    if (event.at("ph") == "M" && event.at("name") == "process_name") processes.push_back(event);
    if (event.at("ph") == "M" && event.at("name") == "thread_name") threads.push_back(event);
  }
  REQUIRE(complete.size() == 15);
  REQUIRE(processes.size() == 1);
  CHECK(processes[0].at("pid") == 2);
  CHECK(processes[0].at("args").at("name") == "Stream 2");
  REQUIRE(threads.size() == 3);
  CHECK(threads[0].at("tid") == 1);
  CHECK(threads[0].at("args").at("name") == "Stream 2 / AI Core");
  CHECK(threads[2].at("args").at("name") == "Stream 2 / AI CPU");
  for (const Json& event : complete) {
    CHECK(event.at("pid") == 2);
    CHECK(event.at("ts").is_number());
    CHECK(event.at("dur").is_number());
  }
  const Json& conv1 = complete[1];
  CHECK(conv1.at("name") == "conv1");
  CHECK(conv1.at("cat") == "cube");
  CHECK(conv1.at("tid") == 1);
  CHECK(conv1.at("ts").get<double>() == doctest::Approx(14.0));
  CHECK(conv1.at("dur").get<double>() == doctest::Approx(85.5));
  CHECK(conv1.at("args").at("input_shapes") == "1,1,224,224,16;49,4,16,16;64");
  CHECK(complete[0].at("tid") == 2);   // TransData runs on the vector core
  CHECK(complete[14].at("tid") == 3);  // the AI CPU task
}

TEST_CASE("report paths: the output's own format, the others beside it") {
  using asc::profiler::report_paths;
  auto paths = report_paths("out/perf.json", {"json", "html", "trace"}, {});
  CHECK(paths.at("json") == "out/perf.json");
  CHECK(paths.at("html") == "out/perf.html");
  CHECK(paths.at("trace") == "out/perf.trace.json");
  paths = report_paths("perf.json", {"html"}, {});
  CHECK(paths.at("html") == "perf.json");  // one format: the file asked for
  paths = report_paths("r/perf.html", {"json", "html"}, {});
  CHECK(paths.at("html") == "r/perf.html");
  CHECK(paths.at("json") == "r/perf.json");
  paths = report_paths("perf.json", {"json", "trace"}, {{"trace", "t.json"}});
  CHECK(paths.at("trace") == "t.json");
  CHECK_THROWS_AS(report_paths("perf.json", {"pdf"}, {}), asc::Error);
  CHECK_THROWS_AS(report_paths("perf.json", {"json", "json"}, {}), asc::Error);
  CHECK_THROWS_AS(report_paths("perf.json", {}, {}), asc::Error);
}
