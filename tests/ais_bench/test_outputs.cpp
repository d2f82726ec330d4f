// What ais_bench writes and prints: file names per --outfmt, the timestamped directory, the
// summary lines and _summary.json's fields.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <regex>
#include <sstream>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

double number_after(const std::string& line, const std::string& key) {
  const auto at = line.find(key);
  REQUIRE(at != std::string::npos);
  return std::stod(line.substr(at + key.size()));
}

}  // namespace

TEST_CASE("--outfmt NPY and TXT: the same names with their extension and content") {
  TempDir dir;
  write_floats(dir / "in.bin", {1, 2, 3, 4, 5, 6});
  const std::string input = " --input " + (dir / "in.bin").string() + "," + (dir / "in.bin").string();
  REQUIRE(ais_bench("--model " + om("add_mul").string() + input + " --output " + dir.path().string() +
                    " --output_dirname npy --outfmt NPY")
              .exit_code == 0);
  const Tensor y = read_npy(dir / "npy/in_0.npy");
  CHECK(y.shape() == Shape{2, 3});
  CHECK(y.to_doubles() == std::vector<double>{2, 4, 6, 8, 10, 12});
  REQUIRE(ais_bench("--model " + om("add_mul").string() + input + " --output " + dir.path().string() +
                    " --output_dirname txt --outfmt TXT")
              .exit_code == 0);
  CHECK(read_text(dir / "txt/in_1.txt") == "1.000000 4.000000 9.000000 \n16.000000 25.000000 36.000000 \n");
}

TEST_CASE("without --output_dirname the results go to a directory named by the time, as ais_bench") {
  TempDir dir;
  REQUIRE(ais_bench("--model " + om("add_mul").string() + " --output " + dir.path().string()).exit_code == 0);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() == 2);
  CHECK(std::regex_match(names[0], std::regex(R"(\d{4}_\d{2}_\d{2}-\d{2}_\d{2}_\d{2})")));
  CHECK(names[1] == names[0] + "_summary.json");
  CHECK(std::filesystem::exists(dir.path() / names[0] / "pure_infer_data_0.bin"));
}

TEST_CASE("the summary lines read as ais_bench's, with NPU_compute_time the simulated device time") {
  TempDir dir;
  const CommandResult result = ais_bench("--model " + om("conv_relu").string() + " --loop 3 --warmup_count 2 --batchsize 4 "
                                         "--display_all_summary true --output " + dir.path().string() +
                                         " --output_dirname o");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  const std::vector<std::string> lines = lines_of(result.out);
  const auto start = std::find(lines.begin(), lines.end(), "[INFO] -----------------Performance Summary------------------");
  REQUIRE(start != lines.end());
  REQUIRE(lines.end() - start >= 7);
  CHECK(start[1].rfind("[INFO] H2D_latency (ms): min = ", 0) == 0);
  CHECK(start[2].rfind("[INFO] NPU_compute_time (ms): min = ", 0) == 0);
  CHECK(start[2].find(", percentile(99%) = ") != std::string::npos);
  CHECK(start[3].rfind("[INFO] D2H_latency (ms): min = ", 0) == 0);
  CHECK(start[4].rfind("[INFO] host_wall_time (ms): min = ", 0) == 0);
  CHECK(start[5].rfind("[INFO] throughput 1000*batchsize.mean(4)/NPU_compute_time.mean(", 0) == 0);
  CHECK(start[6] == "[INFO] ------------------------------------------------------");
  CHECK(std::find(lines.begin(), lines.end(), "[INFO] warm up 2 done") != lines.end());

  const nlohmann::json summary = read_json(dir / "o_summary.json");
  std::vector<std::string> keys;
  for (const auto& [key, value] : summary.items()) keys.push_back(key);
  for (const char* key : {"filesinfo", "args", "NPU_compute_time", "H2D_latency", "D2H_latency", "npu_compute_time_list",
                          "throughput", "pid", "host_wall_time"})
    CHECK_MESSAGE(summary.contains(key), key);
  const nlohmann::json& npu = summary["NPU_compute_time"];
  for (const char* key : {"min", "max", "mean", "median", "percentile(99%)", "count"}) CHECK_MESSAGE(npu.contains(key), key);
  CHECK(npu["count"] == 3);
  CHECK(summary["npu_compute_time_list"].size() == 3);
  const double mean = npu["mean"];
  CHECK(mean > 0);
  CHECK(npu["min"].get<double>() <= mean);
  CHECK(npu["max"].get<double>() >= mean);
  CHECK(summary["throughput"].get<double>() == doctest::Approx(1000.0 * 4 / mean));
  CHECK(number_after(start[5], "): ") == doctest::Approx(1000.0 * 4 / mean));
  CHECK(summary["args"][1] == "--model");
  // H2D: the input's 1*2*4*4 float32 bytes over the SoC's host link, a positive time.
  CHECK(summary["H2D_latency"]["mean"].get<double>() > 0);
}

TEST_CASE("without --batchsize the batch size is dim 0 of the first input, announced as ais_bench does") {
  const CommandResult result = ais_bench("--model " + om("add_mul").string());
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("[INFO] try get model batchsize:2\n") != std::string::npos);
  CHECK(result.out.find("[INFO] throughput 1000*batchsize.mean(2)/NPU_compute_time.mean(") != std::string::npos);
  CHECK(result.out.find("H2D_latency") == std::string::npos);  // only with --display_all_summary
}

TEST_CASE("--debug lists the model's inputs and outputs and each inference's device time") {
  const CommandResult result = ais_bench("--model " + om("add_mul").string() + " --loop 2 --debug true");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("input:\n  #0    a  (2, 3)  float32  24  24\n  #1    b  (2, 3)  float32  24  24\n") !=
        std::string::npos);
  CHECK(result.out.find("output:\n  #0    y  (2, 3)  float32  24  24\n") != std::string::npos);
  std::size_t costs = 0;
  for (const std::string& line : lines_of(result.out)) costs += line.rfind("[DEBUG] model aclExec cost : ", 0) == 0;
  CHECK(costs == 2);
}
