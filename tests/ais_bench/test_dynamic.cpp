// A dynamic-batch .om: --dymBatch (or the seed's --batch) picks the compiled profile; a batch
// size with no profile is the executable's EE8003 listing the profiles.
#include <doctest/doctest.h>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc::test;

TEST_CASE("--dymBatch runs the profile of that batch size, with inputs built at that shape") {
  TempDir dir;
  for (const int batch : {1, 4}) {
    const std::string name = "b" + std::to_string(batch);
    const CommandResult result = ais_bench("--model " + om("dyn_relu").string() + " --dymBatch " + std::to_string(batch) +
                                           " --output " + dir.path().string() + " --output_dirname " + name);
    INFO(result.out, result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(read_floats(dir / (name + "/pure_infer_data_0.bin")).size() == static_cast<std::size_t>(4 * batch));
    CHECK(result.out.find("[INFO] try get model batchsize:" + std::to_string(batch) + "\n") != std::string::npos);
  }
}

TEST_CASE("the seed's --batch picks the batch profile of a dynamic-batch model and sets the throughput batch size") {
  const CommandResult result = ais_bench("--model " + om("dyn_relu").string() + " --batch 2");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("batchsize.mean(2)") != std::string::npos);
}

TEST_CASE("a batch size with no compiled profile is EE8003 naming the profiles, exit 18") {
  const CommandResult result = ais_bench("--model " + om("dyn_relu").string() + " --dymBatch 3");
  CHECK(result.exit_code == 18);
  CHECK(result.err.find("[ERROR] EE8003") != std::string::npos);
  CHECK(result.err.find("batch=4") != std::string::npos);
}

TEST_CASE("a dynamic model run without a profile choice, or a choice a static model cannot take, is EE5008") {
  const CommandResult none = ais_bench("--model " + om("dyn_relu").string());
  CHECK(none.exit_code == 15);
  CHECK(none.err.find("--dymBatch, --dymHW or --dymDims") != std::string::npos);
  const CommandResult on_static = ais_bench("--model " + om("add_mul").string() + " --dymBatch 2");
  CHECK(on_static.exit_code == 15);
  CHECK(on_static.err.find("no dynamic batch") != std::string::npos);
}
