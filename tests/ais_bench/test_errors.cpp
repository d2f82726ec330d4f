// Bad models: missing, corrupt, compiled for another SoC — coded errors, nothing written.
#include <doctest/doctest.h>

#include <fstream>

#include "bench_fixture.hpp"
#include "temp_dir.hpp"

using namespace asc::test;

TEST_CASE("a missing model is EE4001, exit 14") {
  const CommandResult result = ais_bench("--model /nonexistent/model.om");
  CHECK(result.exit_code == 14);
  CHECK(result.err.find("[ERROR] EE4001") != std::string::npos);
  CHECK(result.err.find("/nonexistent/model.om") != std::string::npos);
}

TEST_CASE("a model path too long to look up is EE4001 too, not an internal error") {
  const CommandResult result = ais_bench("--model /tmp/" + std::string(5000, 'm') + ".om");
  CHECK(result.exit_code == 14);
  CHECK(result.err.find("[ERROR] EE4001") != std::string::npos);
  CHECK(result.err.find("cannot be looked up") != std::string::npos);
}

TEST_CASE("a corrupt or truncated .om is EE4004 naming the file, and no output is written") {
  TempDir dir;
  const std::string good = read_text(om("add_mul"));
  {
    std::ofstream truncated(dir / "truncated.om", std::ios::binary);
    truncated.write(good.data(), static_cast<std::streamsize>(good.size() / 2));
    std::ofstream text(dir / "text.om", std::ios::binary);
    text << "this is not an offline model";
  }
  for (const char* name : {"truncated.om", "text.om"}) {
    const CommandResult result =
        ais_bench("--model " + (dir / name).string() + " --output " + (dir / "out").string());
    INFO(result.err);
    CHECK(result.exit_code == 14);
    CHECK(result.err.find("[ERROR] EE4004") != std::string::npos);
    CHECK(result.err.find(name) != std::string::npos);
    CHECK(!std::filesystem::exists(dir / "out"));
  }
}

TEST_CASE("an .om compiled for another SoC than the simulated device is EE5007 naming both") {
  const CommandResult result = ais_bench("--model " + om("add_mul").string() + " --soc_version Ascend910");
  CHECK(result.exit_code == 15);
  CHECK(result.err.find("EE5007") != std::string::npos);
  CHECK(result.err.find("Ascend310P3") != std::string::npos);
  CHECK(result.err.find("Ascend910") != std::string::npos);
}
