// --dump: every task's outputs named as the seed names NPU dumps, with a manifest giving each
// task's original ONNX nodes; the dump compares with the reference backend's through
// op_validate --golden_dir/--actual_dir. --profiler: an msprof-style PROF_* directory whose tasks
// add up to the NPU_compute_time and copy latencies ais_bench reports.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <regex>
#include <sstream>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

TEST_CASE("--dump writes {op_name}.{output_index}.{timestamp}.bin and .npy per task, and a manifest with provenance") {
  TempDir dir;
  const CommandResult result =
      ais_bench("--model " + om("conv_relu").string() + " --dump true --loop 3 --output " + dir.path().string());
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  const nlohmann::json manifest = read_json(dir / "dump/manifest.json");
  CHECK(manifest["naming"] == "seed");
  // conv and relu are one fused task (named after conv) standing for both original nodes; the
  // casts force_fp16 inserts around it are tasks too.
  REQUIRE(manifest["nodes"].contains("conv"));
  const std::string task = "conv";
  const nlohmann::json& entry = manifest["nodes"]["conv"];
  CHECK(entry["op_type"] == "FusedConv");
  CHECK(entry["provenance"] == nlohmann::json::array({"conv", "relu"}));
  const nlohmann::json& output = entry["outputs"][0];
  const std::string bin = output["bin"], npy = output["file"];
  const std::string stem = task + ".0." + std::to_string(output["timestamp"].get<std::int64_t>());
  CHECK(bin == stem + ".bin");
  CHECK(npy == stem + ".npy");
  CHECK(std::regex_match(bin, std::regex(R"(.+\.0\.\d{16}\.bin)")));
  CHECK(output["dtype"] == "float32");
  CHECK(output["shape"] == nlohmann::json::array({1, 3, 4, 4}));
  // Zero input: every output is relu(bias) = 0.25; the .bin is the .npy's data, raw.
  CHECK(read_floats(dir / "dump" / bin) == std::vector<float>(48, 0.25f));
  CHECK(read_npy(dir / "dump" / npy).to_doubles() == std::vector<double>(48, 0.25));
  // Only the first measured inference is dumped: one .bin and one .npy per task, not one per loop.
  std::size_t files = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir / "dump")) files += file.path().extension() != ".json";
  CHECK(files == 2 * manifest["nodes"].size());
}

TEST_CASE("an ais_bench dump compares with the reference backend's dump through op_validate") {
  TempDir dir;
  const std::filesystem::path model = om("conv_relu_fp32");  // also generates conv_relu.onnx
  write_npy(dir / "x.npy", Tensor::from_vector<float>({1, 2, 4, 4}, std::vector<float>(32, 1.0f)));
  const CommandResult golden = run(std::string(ASC_EXECUTABLE) + " run " + ASC_SOURCE_DIR +
                                   "/configs/pipelines/run_reference.yaml --set model=" +
                                   (fixture_dir() / "conv_relu.onnx").string() + " --set inputs=" +
                                   (dir / "x.npy").string() + " --set output_dir=" + (dir / "ref").string() +
                                   " --set dump_dir=" + (dir / "golden").string());
  INFO(golden.err);
  REQUIRE(golden.exit_code == 0);
  const CommandResult bench = ais_bench("--model " + model.string() + " --input " + (dir / "x.npy").string() +
                                        " --dump 1 --output " + dir.path().string());
  INFO(bench.err);
  REQUIRE(bench.exit_code == 0);
  const CommandResult compare = run(std::string(ASC_OP_VALIDATE) + " --golden_dir=" + (dir / "golden").string() +
                                    " --actual_dir=" + (dir / "dump").string() + " --output=" +
                                    (dir / "report.json").string());
  INFO(compare.out, compare.err);
  CHECK(compare.exit_code == 0);
  // The fused task is compared at relu, its last original node (conv's own output has no NPU dump).
  const std::string report = read_text(dir / "report.json");
  CHECK(report.find("\"relu\"") != std::string::npos);
}

TEST_CASE("--profiler writes PROF_*/mindstudio_profiler_output whose tasks span NPU_compute_time per inference") {
  TempDir dir;
  const CommandResult result = ais_bench("--model " + om("conv_relu").string() + " --profiler 1 --loop 2 --output " +
                                         dir.path().string() + " --output_dirname o");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  const std::filesystem::path prof = only_entry(dir / "profiler", "PROF_");
  const std::filesystem::path op_summary = only_entry(prof / "mindstudio_profiler_output", "op_summary_");
  const std::vector<std::vector<std::string>> rows = csv_rows(op_summary);
  REQUIRE(rows.size() >= 3);  // header + one task per inference at least
  const auto column = [&](const std::string& name) {
    const auto at = std::find(rows[0].begin(), rows[0].end(), name);
    REQUIRE(at != rows[0].end());
    return static_cast<std::size_t>(at - rows[0].begin());
  };
  const std::size_t start = column("Task Start Time(us)"), duration = column("Task Duration(us)");
  double first = 1e300, last = 0;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    first = std::min(first, std::stod(rows[r][start]));
    last = std::max(last, std::stod(rows[r][start]) + std::stod(rows[r][duration]));
  }
  // Two inferences back to back, each copy in / run / copy out: the operators span both runs and
  // the copy out and copy in between them (ms -> us; the CSV rounds to 0.001 us).
  const nlohmann::json summary = read_json(dir / "o_summary.json");
  const double compute_ms = summary["NPU_compute_time"]["mean"];
  const double h2d_ms = summary["H2D_latency"]["mean"], d2h_ms = summary["D2H_latency"]["mean"];
  CHECK((last - first) == doctest::Approx((2 * compute_ms + h2d_ms + d2h_ms) * 1000).epsilon(1e-3));
  // The copies are tasks too: task_time lists them, op_summary does not.
  const auto tasks = csv_rows(only_entry(prof / "mindstudio_profiler_output", "task_time_"));
  std::size_t copies = 0;
  for (const auto& row : tasks) copies += row.size() > 2 && row[2] == "MEMCPY_ASYNC" ? 1 : 0;
  CHECK(copies == 4);
  CHECK(tasks.size() - 1 == rows.size() - 1 + copies);
}

TEST_CASE("--profiler names what it measured (info.json), and modelTrade prints it without flags") {
  TempDir dir;
  const CommandResult result = ais_bench("--model " + om("conv_relu").string() + " --profiler 1 --output " +
                                         dir.path().string() + " --output_dirname o");
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  const std::filesystem::path prof = only_entry(dir / "profiler", "PROF_");
  const nlohmann::json info = read_json(prof / "device_0" / "info.json.0");
  CHECK(info["soc_version"] == "Ascend310P3");
  CHECK(info["model"]["name"] == "conv_relu");
  CHECK(info["model"]["precision_mode"] == "force_fp16");
  CHECK(info["model"]["batch"] == 1);
  CHECK(info["DeviceInfo"][0]["id"] == 0);
  CHECK(info["DeviceInfo"][0]["ai_core_num"].get<int>() > 0);

  const CommandResult named = run(std::string(ASC_MODEL_TRADE) + " --report=" + prof.string() + " --output=" +
                                  (dir / "perf.json").string());
  INFO(named.out, named.err);
  CHECK(named.exit_code == 0);
  CHECK(named.out.find("modelTrade: conv_relu (Ascend310P3)") != std::string::npos);
  // The flags still win.
  const CommandResult overridden = run(std::string(ASC_MODEL_TRADE) + " --report=" + prof.string() +
                                       " --model_name=mine --soc_version=Ascend910B1 --output=" +
                                       (dir / "perf2.json").string());
  CHECK(overridden.out.find("modelTrade: mine (Ascend910B1)") != std::string::npos);
}
