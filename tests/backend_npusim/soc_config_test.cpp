// The SoC files: every listed chip loads, peaks agree with the published figures, and broken
// files fail with the field and file:line.
#include <doctest/doctest.h>

#include <asc/sdk/error.hpp>
#include <fstream>
#include <regex>
#include <sstream>

#include "npusim_support.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

using namespace asc;
using namespace asc::test;

TEST_CASE("every required SoC file loads with its own name") {
  for (const char* name : {"Ascend310", "Ascend310P3", "Ascend910", "Ascend910B1", "Ascend910B2", "Ascend910B3",
                           "Ascend910B4"}) {
    CAPTURE(name);
    const npusim::SocConfig s = soc(name);
    CHECK(s.name == name);
    CHECK(s.cube_fp16.macs_per_cycle() == 4096);  // 16x16x16
    CHECK(s.cube_int8.macs_per_cycle() == 8192);  // 16x32x16
  }
  CHECK(soc("Ascend910B2").split);
  CHECK_FALSE(soc("Ascend310P3").split);
}

TEST_CASE("fp16 cube peaks match the published chip figures") {
  // Ascend 910: 256 TFLOPS fp16 (Hot Chips 2019); Ascend 910B2: 24 cores x 8192 x 1.8 GHz = 353.9 TFLOPS.
  CHECK(soc("Ascend910").cube_fp16_peak_flops() == doctest::Approx(256e12).epsilon(0.01));
  CHECK(soc("Ascend910B2").cube_fp16_peak_flops() == doctest::Approx(353.9e12).epsilon(0.001));
  CHECK(soc("Ascend310P3").cube_fp16_peak_flops() == doctest::Approx(70e12).epsilon(0.01));
  // Ascend 310: 8 TFLOPS fp16 (HiSilicon, Oct 2018).
  CHECK(soc("Ascend310").cube_fp16_peak_flops() == doctest::Approx(8e12).epsilon(0.01));
}

TEST_CASE("calibration.json beside the SoC files gives the error band tools print") {
  TempDir dir;
  std::ofstream(dir / "Ascend910B2.yaml") << [] {
    std::ifstream in(std::string(ASC_NPUSIM_SOURCE_SOC_DIR) + "/Ascend910B2.yaml");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }();
  CHECK(npusim::load_soc("Ascend910B2", dir.path()).timing_accuracy.empty());  // no file: no claim
  std::ofstream(dir / "calibration.json") << R"({"tuned": {"mae_percent": 12.34, "points": 8},
      "holdout": {"mae_percent": 17, "points": 7}, "socs": ["Ascend310", "Ascend910B2"]})";
  const npusim::SocConfig s = npusim::load_soc("Ascend910B2", dir.path());
  CHECK(s.timing_accuracy == "calibration MAE 12.3 % over 8 published points (hold-out 17.0 % over 7)");
  CHECK(npusim::device_info(s).timing_accuracy == s.timing_accuracy);

  // A SoC none of the points was measured on is not calibrated, whatever the others' error.
  std::ofstream(dir / "calibration.json") << R"({"tuned": {"mae_percent": 12.34, "points": 8},
      "socs": ["Ascend310", "Ascend310P3"]})";
  CHECK(npusim::load_soc("Ascend910B2", dir.path()).timing_accuracy ==
        "not calibrated: no published figures for Ascend910B2 (calibrated: Ascend310, Ascend310P3)");
  std::ofstream(dir / "calibration.json") << R"({"tuned": {"mae_percent": 12.34, "points": 8}})";
  const Error no_socs = error_from([&] { npusim::load_soc("Ascend910B2", dir.path()); });
  CHECK(no_socs.code() == ErrorCode::ConfigMissingKey);
  CHECK(no_socs.message().find("'socs'") != std::string::npos);
  std::ofstream(dir / "calibration.json") << R"({"tuned": {"mae_percent": 12.34, "points": 8}, "socs": "Ascend310"})";
  CHECK(error_from([&] { npusim::load_soc("Ascend910B2", dir.path()); }).code() == ErrorCode::ConfigWrongType);

  std::ofstream(dir / "calibration.json") << R"({"tuned": {"mae_percent": "12"}})";
  const Error wrong = error_from([&] { npusim::load_soc("Ascend910B2", dir.path()); });
  CHECK(wrong.code() == ErrorCode::ConfigWrongType);
  CHECK(wrong.message().find("calibration.json") != std::string::npos);
  std::ofstream(dir / "calibration.json") << "{";
  CHECK(error_from([&] { npusim::load_soc("Ascend910B2", dir.path()); }).code() == ErrorCode::ConfigSyntax);
}

namespace {

std::string soc_text() {
  std::ifstream in(std::string(ASC_NPUSIM_SOURCE_SOC_DIR) + "/Ascend910B2.yaml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Error load_error(const TempDir& dir, const std::string& text) {
  std::ofstream(dir / "Ascend910B2.yaml") << text;
  return error_from([&] { npusim::load_soc("Ascend910B2", dir.path()); });
}

}  // namespace

TEST_CASE("a SoC file missing a field names the field and file:line (EE5004)") {
  TempDir dir;
  const Error e = load_error(dir, std::regex_replace(soc_text(), std::regex("\n  l2_to_l1: 110\n"), "\n"));
  CHECK(e.code() == ErrorCode::ConfigMissingKey);
  CHECK(std::string(e.what()).find("paths_bytes_per_cycle.l2_to_l1") != std::string::npos);
  CHECK(std::string(e.what()).find((dir / "Ascend910B2.yaml").string() + ":") != std::string::npos);
}

TEST_CASE("a SoC field of the wrong type names file:line (EE5003)") {
  TempDir dir;
  const Error e = load_error(dir, std::regex_replace(soc_text(), std::regex("clock_mhz: 1800"), "clock_mhz: fast"));
  CHECK(e.code() == ErrorCode::ConfigWrongType);
  // clock_mhz is on line 6 of the file.
  CHECK(std::string(e.what()).find("Ascend910B2.yaml:6: field 'clock_mhz' must be a number") != std::string::npos);
}

TEST_CASE("an unknown soc_version lists the known ones (EE5007)") {
  const Error e = error_from([] { soc("Ascend999"); });
  CHECK(e.code() == ErrorCode::ConfigBadValue);
  CHECK(std::string(e.what()).find("Ascend310, Ascend310P3, Ascend910, Ascend910B1") != std::string::npos);
}

TEST_CASE("the backend needs soc_version and rejects unknown options and precision modes") {
  Graph graph = make_graph({tensor_info("x", DType::Float32, {2})}, {"y"});
  add_node(graph, "relu", "Relu", {"x"}, {"y"});
  CHECK(error_from([&] { compile_npusim(graph, ""); }).code() == ErrorCode::ConfigMissingKey);
  CHECK(error_from([&] { compile_npusim(graph, "Ascend310P3", "fp8"); }).code() == ErrorCode::ConfigBadValue);
}
