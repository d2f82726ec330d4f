// A whole network with a planted fault: onnx.load -> reference.run (golden dump) -> a test-only
// fault stage corrupting conv1 -> reference.run (actual dump) -> validator.compare_dirs. The
// comparison must name conv1 as the first failing operator and classify the fault.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// Runs the pipeline with `fault_stage` (a YAML stage entry) between the two runs; returns the
// JSON report.
nlohmann::json run_with_fault(const TempDir& dir, const std::string& fault_stage) {
  const auto model = run_command(
      std::string(ASC_TEST_PYTHON) + " " + ASC_MAKE_CONV_NET_SCRIPT + " '" + dir.path().string() + "'",
      dir / "make_model.log");
  INFO(model.output);
  REQUIRE(model.exit_code == 0);
  const std::string d = dir.path().string();
  const std::string pipeline =
      "name: planted_fault\n"
      "plugins: [parser_onnx, ops_builtin, backend_reference, fault, validator]\n"
      "stages:\n"
      "  - stage: onnx.load\n"
      "    with: {model: '" +
      d +
      "/model.onnx'}\n"
      "  - stage: reference.run\n"
      "    name: golden\n"
      "    with: {output_dir: '" +
      d + "/golden_out', dump_dir: '" + d + "/golden', seed: 3}\n" + fault_stage +
      "  - stage: reference.run\n"
      "    name: actual\n"
      "    with: {output_dir: '" +
      d + "/actual_out', dump_dir: '" + d +
      "/actual', seed: 3}\n"
      "  - stage: validator.compare_dirs\n"
      "    with: {golden_dir: '" +
      d + "/golden', actual_dir: '" + d +
      "/actual', abs_tolerance: 1e-4,\n"
      "           rel_tolerance: 1e-3, json: '" +
      d + "/report.json', html: '" + d + "/report.html'}\n";
  write_text_atomically(dir / "pipeline.yaml", pipeline);
  const auto run = run_command(std::string(ASC_EXECUTABLE) + " run '" + (dir / "pipeline.yaml").string() +
                                   "' --plugin-dir '" + ASC_VALIDATOR_TEST_PLUGIN_DIR + "'",
                               dir / "asc.log");
  INFO(run.output);
  CHECK(run.exit_code ==
        exit_code_for(ErrorCode::ValidationFailed));  // the comparison fails, after reporting
  CHECK(run.output.find("EE7003") != std::string::npos);
  REQUIRE(std::filesystem::exists(dir / "report.json"));
  return nlohmann::json::parse(read_text(dir / "report.json"));
}

// The same network on the NPU simulator under force_fp16 (Ascend310P3), the fault (if any) planted
// between the golden run and the NPU run; `compare_with` is the comparison's extra parameters (the
// tolerances; none: the whole-network defaults). Returns the JSON report.
nlohmann::json run_on_npu(const TempDir& dir, const std::string& fault_stage, const std::string& compare_with,
                          int expected_exit) {
  const auto model = run_command(
      std::string(ASC_TEST_PYTHON) + " " + ASC_MAKE_CONV_NET_SCRIPT + " '" + dir.path().string() + "'",
      dir / "make_model.log");
  REQUIRE(model.exit_code == 0);
  const std::string d = dir.path().string();
  const std::string pipeline =
      "name: planted_fault_npu\n"
      "plugins: [parser_onnx, ops_builtin, backend_reference, backend_npusim, fault, validator]\n"
      "stages:\n"
      "  - stage: onnx.load\n"
      "    with: {model: '" + d + "/model.onnx'}\n"
      "  - stage: reference.run\n"
      "    with: {output_dir: '" + d + "/golden_out', dump_dir: '" + d + "/golden', seed: 3}\n" +
      fault_stage +
      "  - stage: npusim.run\n"
      "    with: {output_dir: '" + d + "/npu_out', dump_dir: '" + d + "/npu', seed: 3, soc_version: Ascend310P3,\n"
      "           precision_mode: force_fp16}\n"
      "  - stage: validator.compare_dirs\n"
      "    with: {golden_dir: '" + d + "/golden', actual_dir: '" + d + "/npu', " + compare_with +
      "json: '" + d + "/report.json'}\n";
  write_text_atomically(dir / "pipeline.yaml", pipeline);
  const auto run = run_command(std::string(ASC_EXECUTABLE) + " run '" + (dir / "pipeline.yaml").string() +
                                   "' --plugin-dir '" + ASC_VALIDATOR_TEST_PLUGIN_DIR + "'",
                               dir / "asc.log");
  INFO(run.output);
  CHECK(run.exit_code == expected_exit);
  REQUIRE(std::filesystem::exists(dir / "report.json"));
  return nlohmann::json::parse(read_text(dir / "report.json"));
}

// Tolerances sized for fp16 against an fp32 golden: |error| up to 1e-2 absolute or relative, and up
// to 5 % of an operator's elements may exceed them (near-zero values, whose relative error fp16
// rounding alone makes large: about 1 % of conv1's here).
nlohmann::json run_on_npu_with_fault(const TempDir& dir, const std::string& fault_stage) {
  return run_on_npu(dir, fault_stage, "abs_tolerance: 1e-2, rel_tolerance: 1e-2, error_rate_threshold: 0.05, ",
                    exit_code_for(ErrorCode::ValidationFailed));
}

const nlohmann::json& row_of(const nlohmann::json& report, const std::string& node) {
  for (const auto& row : report["rows"])
    if (row["npu_dump"] == node) return row;
  FAIL("no row for " << node);
  return report;
}

}  // namespace

TEST_CASE("a conv scaled by 1.01 is the first failing operator, classified scale_offset") {
  TempDir dir;
  const auto report =
      run_with_fault(dir, "  - stage: fault.scale_weights\n    with: {node: conv1, factor: 1.01}\n");
  const auto& first = report["first_failures"][0];
  CHECK(first["criterion"] == "precision");
  CHECK(first["npu_dump"] == "conv1");
  const auto& conv1 = row_of(report, "conv1")["comparison"];
  const auto classes = conv1["error_classes"].get<std::vector<std::string>>();
  CHECK(std::find(classes.begin(), classes.end(), "scale_offset") != classes.end());
  CHECK(conv1["scale_fit"]["scale"].get<double>() == doctest::Approx(1.01).epsilon(1e-5));
  // Every node of the network is listed, in execution order.
  std::vector<std::string> order;
  for (const auto& row : report["rows"]) order.push_back(row["npu_dump"]);
  CHECK(order == std::vector<std::string>{"conv1", "relu1", "conv2", "relu2", "gap"});
  CHECK(report["summary"]["compared"] == 5);
}

TEST_CASE("a NaN weight makes its conv the first failing operator, classified nan") {
  TempDir dir;
  const auto report = run_with_fault(dir, "  - stage: fault.nan_weight\n    with: {node: conv1}\n");
  CHECK(report["first_failures"][0]["npu_dump"] == "conv1");
  const auto& conv1 = row_of(report, "conv1")["comparison"];
  const auto classes = conv1["error_classes"].get<std::vector<std::string>>();
  CHECK(std::find(classes.begin(), classes.end(), "nan") != classes.end());
  CHECK(conv1["nonfinite"]["actual"]["nan"].get<int>() > 0);
  // A NaN weight of filter 0 only reaches output channel 0.
  CHECK(conv1["nonfinite"]["actual"]["first_nan"][0].get<std::string>().rfind("[0,0,", 0) == 0);
}

TEST_CASE("configs/pipelines/validate_reference.yaml compares a dump with a fresh reference run") {
  TempDir dir;
  run_with_fault(dir, "  - stage: fault.scale_weights\n    with: {node: conv2, factor: 0.99}\n");
  const std::string d = dir.path().string();
  const std::string pipeline = std::string(ASC_EXECUTABLE) + " run " + ASC_SOURCE_DIR +
                               "/configs/pipelines/validate_reference.yaml --set model='" + d +
                               "/model.onnx' --set seed=3 --set output_dir='" + d +
                               "/fresh_out' --set golden_dir='" + d + "/fresh' --set json='" + d +
                               "/fresh.json' --set actual_dir=";
  // The unfaulted golden dump of the first run matches the fresh reference run...
  const auto same = run_command(pipeline + "'" + d + "/golden'", dir / "same.log");
  INFO(same.output);
  CHECK(same.exit_code == 0);
  // ...the faulted one fails first at conv2.
  const auto faulted = run_command(pipeline + "'" + d + "/actual'", dir / "faulted.log");
  CHECK(faulted.exit_code == exit_code_for(ErrorCode::ValidationFailed));
  const auto report = nlohmann::json::parse(read_text(dir / "fresh.json"));
  CHECK(report["first_failures"][0]["npu_dump"] == "conv2");
}

TEST_CASE("on the NPU simulator (fp16), a conv scaled by 1.05 is the first failing operator, classified scale_offset") {
  TempDir dir;
  const auto report =
      run_on_npu_with_fault(dir, "  - stage: fault.scale_weights\n    with: {node: conv2, factor: 1.05}\n");
  // conv1 carries only fp16 rounding and passes; conv2 is the first to fail.
  CHECK(row_of(report, "conv1")["comparison"]["passed"] == true);
  CHECK(report["first_failures"][0]["npu_dump"] == "conv2");
  const auto& conv2 = row_of(report, "conv2")["comparison"];
  const auto classes = conv2["error_classes"].get<std::vector<std::string>>();
  CHECK(std::find(classes.begin(), classes.end(), "scale_offset") != classes.end());
  // fp16 rounding of operands and result moves the fitted scale by far less than 1e-3.
  CHECK(conv2["scale_fit"]["scale"].get<double>() == doctest::Approx(1.05).epsilon(1e-3));
}

TEST_CASE("on the NPU simulator (fp16), a NaN weight makes its conv the first failing operator, classified nan") {
  TempDir dir;
  const auto report = run_on_npu_with_fault(dir, "  - stage: fault.nan_weight\n    with: {node: conv1}\n");
  CHECK(report["first_failures"][0]["npu_dump"] == "conv1");
  const auto& conv1 = row_of(report, "conv1")["comparison"];
  const auto classes = conv1["error_classes"].get<std::vector<std::string>>();
  CHECK(std::find(classes.begin(), classes.end(), "nan") != classes.end());
}

// The whole-network defaults (no tolerance given: criteria network). fp16 against the fp32 golden
// passes without any tolerance tuning; each planted fault fails at its operator with its class.
namespace {

bool has_class(const nlohmann::json& comparison, const std::string& name) {
  const auto classes = comparison["error_classes"].get<std::vector<std::string>>();
  return std::find(classes.begin(), classes.end(), name) != classes.end();
}

nlohmann::json failing_on_npu(const TempDir& dir, const std::string& fault_stage) {
  return run_on_npu(dir, fault_stage, "", exit_code_for(ErrorCode::ValidationFailed));
}

}  // namespace

TEST_CASE("whole-network defaults: the healthy fp16 network passes, judged at float16's tolerance") {
  TempDir dir;
  const auto report = run_on_npu(dir, "", "", 0);
  CHECK(report["options"]["criteria"] == "network");
  CHECK(report["result"] == "pass");
  CHECK(report["summary"]["compared"].get<int>() >= 3);
  for (const auto& row : report["rows"]) {
    if (row["kind"] != "compared") continue;
    const auto& criteria = row["comparison"]["criteria"];
    CHECK(criteria["precision"] == "float16");
    // 10 float16 epsilons: 10 * 2^-10.
    CHECK(criteria["relative_distance_maximum"].get<double>() == doctest::Approx(10.0 / 1024));
    CHECK(criteria["cosine_minimum"].get<double>() == 0.99);
  }
}

TEST_CASE("whole-network defaults: a conv scaled by 1.05 fails at that conv, classified scale_offset") {
  TempDir dir;
  const auto report =
      failing_on_npu(dir, "  - stage: fault.scale_weights\n    with: {node: conv2, factor: 1.05}\n");
  CHECK(row_of(report, "conv1")["comparison"]["passed"] == true);
  CHECK(report["first_failures"][0]["criterion"] == "precision");
  CHECK(report["first_failures"][0]["npu_dump"] == "conv2");
  const auto& conv2 = row_of(report, "conv2")["comparison"];
  CHECK(has_class(conv2, "scale_offset"));
  CHECK(has_class(conv2, "relative_distance"));
  CHECK(conv2["scale_fit"]["scale"].get<double>() == doctest::Approx(1.05).epsilon(1e-3));
}

TEST_CASE("whole-network defaults: a NaN weight fails at its conv, classified nan, with coordinates") {
  TempDir dir;
  const auto report = failing_on_npu(dir, "  - stage: fault.nan_weight\n    with: {node: conv1}\n");
  CHECK(report["first_failures"][0]["npu_dump"] == "conv1");
  const auto& conv1 = row_of(report, "conv1")["comparison"];
  CHECK(has_class(conv1, "nan"));
  CHECK(conv1["nonfinite"]["actual"]["first_nan"][0].get<std::string>().rfind("[0,0,", 0) == 0);
}

TEST_CASE("whole-network defaults: a wrong bias fails at its conv, classified scale_offset (an offset)") {
  TempDir dir;
  const auto report =
      failing_on_npu(dir, "  - stage: fault.wrong_bias\n    with: {node: conv1, delta: 0.05}\n");
  CHECK(report["first_failures"][0]["npu_dump"] == "conv1");
  const auto& conv1 = row_of(report, "conv1")["comparison"];
  CHECK(has_class(conv1, "relative_distance"));
  CHECK(has_class(conv1, "scale_offset"));
  CHECK(conv1["scale_fit"]["scale"].get<double>() == doctest::Approx(1.0).epsilon(0.05));
  CHECK(conv1["scale_fit"]["offset"].get<double>() > 0.02);
}

TEST_CASE("whole-network defaults: a transposed weight fails at its conv, classified cosine") {
  TempDir dir;
  const auto report = failing_on_npu(dir, "  - stage: fault.transpose_weight\n    with: {node: conv2}\n");
  CHECK(row_of(report, "conv1")["comparison"]["passed"] == true);
  CHECK(report["first_failures"][0]["npu_dump"] == "conv2");
  const auto& conv2 = row_of(report, "conv2")["comparison"];
  CHECK(has_class(conv2, "cosine"));
  CHECK(conv2["metrics"]["CosineSimilarity"].get<double>() < 0.99);
}
