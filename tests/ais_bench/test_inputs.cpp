// Inputs as ais_bench takes them: generated (zero / random), .bin and .npy files, directories in
// natural order, several files per batch; sizes that do not fit are EE8003.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

std::string arguments(const std::string& model, const TempDir& dir, const std::string& extra) {
  return "--model " + om(model).string() + " --output " + dir.path().string() + " --output_dirname out " + extra;
}

}  // namespace

TEST_CASE("no --input: one inference on zeros, written as pure_infer_data_<i>.bin") {
  TempDir dir;
  const CommandResult result = ais_bench(arguments("cast_add", dir, ""));
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  // y = float(0) + 1 everywhere.
  CHECK(read_floats(dir / "out/pure_infer_data_0.bin") == std::vector<float>(6, 1.0f));
  const nlohmann::json summary = read_json(dir / "out_summary.json");
  CHECK(summary["filesinfo"]["0"]["infiles"] == nlohmann::json::array({"pure_infer_data"}));
}

TEST_CASE("--pure_data_type random: bytes 0..255, so a uint8 input takes varied values") {
  TempDir dir;
  const CommandResult result = ais_bench(arguments("cast_add", dir, "--pure_data_type random"));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::vector<float> y = read_floats(dir / "out/pure_infer_data_0.bin");
  REQUIRE(y.size() == 6);
  bool varied = false;
  for (const float v : y) {
    CHECK(v >= 1.0f);
    CHECK(v <= 256.0f);
    CHECK(v == static_cast<float>(static_cast<int>(v)));  // integer + 1
    varied = varied || v != y.front();
  }
  CHECK(varied);
}

TEST_CASE(".bin and .npy files feed the inputs in order; outputs are named after the first input file") {
  TempDir dir;
  write_floats(dir / "first.bin", {0, 1, 2, 3, 4, 5});
  write_npy(dir / "second.npy", Tensor::from_vector<float>({2, 3}, {2, 2, 2, 2, 2, 2}));
  const CommandResult result =
      ais_bench(arguments("add_mul", dir, "--input " + (dir / "first.bin").string() + "," + (dir / "second.npy").string()));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(read_floats(dir / "out/first_0.bin") == std::vector<float>{2, 3, 4, 5, 6, 7});   // a + b
  CHECK(read_floats(dir / "out/first_1.bin") == std::vector<float>{0, 2, 4, 6, 8, 10});  // a * b
  const nlohmann::json files = read_json(dir / "out_summary.json")["filesinfo"]["0"];
  CHECK(files["infiles"] == nlohmann::json::array({(dir / "first.bin").string(), (dir / "second.npy").string()}));
  CHECK(files["outfiles"] ==
        nlohmann::json::array({(dir / "out/first_0.bin").string(), (dir / "out/first_1.bin").string()}));
}

TEST_CASE("directories: one per input, files matched in natural order, one inference each") {
  TempDir dir;
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  for (const int i : {1, 2, 10}) {
    const float v = static_cast<float>(i);
    write_floats(dir / ("a/s" + std::to_string(i) + ".bin"), std::vector<float>(6, v));
    write_floats(dir / ("b/t" + std::to_string(i) + ".bin"), std::vector<float>(6, 100 * v));
  }
  const CommandResult result = ais_bench(arguments("add_mul", dir, "--loop 2 --input " + (dir / "a").string() + "," +
                                                                       (dir / "b").string()));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(read_floats(dir / "out/s1_0.bin") == std::vector<float>(6, 101));
  CHECK(read_floats(dir / "out/s2_0.bin") == std::vector<float>(6, 202));
  CHECK(read_floats(dir / "out/s10_0.bin") == std::vector<float>(6, 1010));
  const nlohmann::json summary = read_json(dir / "out_summary.json");
  // Sample ids follow natural order: s2 is sample 1, s10 sample 2.
  CHECK(summary["filesinfo"]["1"]["infiles"][0] == (dir / "a/s2.bin").string());
  CHECK(summary["filesinfo"]["2"]["infiles"][1] == (dir / "b/t10.bin").string());
  CHECK(summary["NPU_compute_time"]["count"] == 6);  // 3 samples x 2 loops
}

TEST_CASE("files smaller than the input make up a batch; outputs split back per file, the last batch padded") {
  TempDir dir;
  for (const int i : {0, 1, 2}) write_floats(dir / ("r" + std::to_string(i) + ".bin"), std::vector<float>(3, i));
  const CommandResult result = ais_bench(arguments(
      "batch2", dir, "--input " + (dir / "r0.bin").string() + "," + (dir / "r1.bin").string() + "," + (dir / "r2.bin").string()));
  INFO(result.out, result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(read_floats(dir / "out/r0_0.bin") == std::vector<float>(3, 10));
  CHECK(read_floats(dir / "out/r1_0.bin") == std::vector<float>(3, 11));
  CHECK(read_floats(dir / "out/r2_0.bin") == std::vector<float>(3, 12));
  const nlohmann::json files = read_json(dir / "out_summary.json")["filesinfo"];
  CHECK(files.size() == 3);  // the padding slot of the second batch writes nothing
  CHECK(read_json(dir / "out_summary.json")["NPU_compute_time"]["count"] == 2);
}

TEST_CASE("an input file of the wrong size is EE8003 with ais_bench's message, exit 18") {
  TempDir dir;
  write_floats(dir / "short.bin", {1, 2, 3, 4, 5});
  write_floats(dir / "ok.bin", {1, 2, 3, 4, 5, 6});
  const CommandResult result =
      ais_bench("--model " + om("add_mul").string() + " --input " + (dir / "ok.bin").string() + "," + (dir / "short.bin").string());
  CHECK(result.exit_code == 18);
  CHECK(result.err.find("[ERROR] EE8003") != std::string::npos);
  CHECK(result.err.find("ndata size:20 not match 24") != std::string::npos);
  const CommandResult first = ais_bench("--model " + om("add_mul").string() + " --input " +
                                        (dir / "short.bin").string() + "," + (dir / "ok.bin").string());
  CHECK(first.exit_code == 18);
  CHECK(first.err.find("arg0 tensorsize: 24 filesize: 20 not match") != std::string::npos);
}

TEST_CASE("a missing input file is EE4001") {
  const CommandResult result = ais_bench("--model " + om("add_mul").string() + " --input /nonexistent/a.bin,/nonexistent/b.bin");
  CHECK(result.exit_code == 14);
  CHECK(result.err.find("EE4001") != std::string::npos);
}
