// op_validate's command line: both flag forms, --help, exit codes, and bad input, each with its
// EE code and exit status 2.
#include <doctest/doctest.h>

#include <asc/sdk/io.hpp>
#include <fstream>
#include <vector>

#include "support.hpp"
#include "temp_dir.hpp"

using namespace asc;
using namespace asc::test;

namespace {

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

void write_floats(const std::filesystem::path& path, const std::vector<float>& values) {
  write_bytes(path, values.data(), values.size() * sizeof(float));
}

}  // namespace

TEST_CASE("op_validate --help prints the usage and exits 0") {
  TempDir dir;
  const auto result = op_validate("--help", dir / "log");
  CHECK(result.exit_code == 0);
  CHECK(result.output.find("--golden_dir") != std::string::npos);
  CHECK(result.output.find("Exit status: 0 pass, 1 precision failure, 2 bad input") != std::string::npos);
}

TEST_CASE("op_validate exits 0 on a pass and 1 on a precision failure, with either flag form") {
  TempDir dir;
  write_floats(dir / "golden.bin", {1, 2, 3, 4});
  write_floats(dir / "close.bin", {1, 2, 3, 4.0001f});
  write_floats(dir / "far.bin", {1, 2, 3, 4.5f});
  const auto pass =
      op_validate("--golden=" + quoted(dir / "golden.bin") + " --actual " + quoted(dir / "close.bin") +
                      " --op_name Add --abs_tolerance 1e-3 --rel_tolerance=1e-2",
                  dir / "pass.log");
  CHECK(pass.exit_code == 0);
  CHECK(pass.output.find("Result: PASS") != std::string::npos);
  CHECK(pass.output.find("CosineSimilarity") != std::string::npos);
  const auto fail = op_validate("--golden " + quoted(dir / "golden.bin") +
                                    " --actual=" + quoted(dir / "far.bin") + " --op_name=Add --shape=2,2",
                                dir / "fail.log");
  CHECK(fail.exit_code == 1);
  CHECK(fail.output.find("Result: FAIL [absolute, relative]") != std::string::npos);
  CHECK(fail.output.find("[1,1]") != std::string::npos);  // the failing element's coordinates
  CHECK(fail.output.find("EE7003") != std::string::npos);
  // An error rate that allows one failure of four.
  CHECK(op_validate("--golden=" + quoted(dir / "golden.bin") + " --actual=" + quoted(dir / "far.bin") +
                        " --error_rate_threshold=0.25 --quiet",
                    dir / "rate.log")
            .exit_code == 0);
}

TEST_CASE("raw files of other dtypes need --dtype; each side may differ") {
  TempDir dir;
  write_floats(dir / "golden.bin", {1, 2, 3});
  const std::vector<std::uint16_t> halves{0x3c00, 0x4000, 0x4200};  // 1, 2, 3 in float16
  write_bytes(dir / "actual.bin", halves.data(), halves.size() * 2);
  CHECK(op_validate("--golden=" + quoted(dir / "golden.bin") + " --actual=" + quoted(dir / "actual.bin") +
                        " --actual_dtype=float16",
                    dir / "log")
            .exit_code == 0);
}

TEST_CASE("bad input: each case exits 2 with its EE code") {
  TempDir dir;
  write_floats(dir / "g100.bin", std::vector<float>(100, 1.0f));
  write_floats(dir / "a99.bin", std::vector<float>(99, 1.0f));
  write_npy(dir / "f32.npy", floats({3}, {1, 2, 3}));
  write_npy(dir / "i32.npy", Tensor::from_vector<std::int32_t>({3}, {1, 2, 3}));
  const std::string npy = read_text(dir / "f32.npy");
  write_bytes(dir / "truncated.npy", npy.data(), npy.size() - 3);
  write_bytes(dir / "ten_bytes.bin", "0123456789", 10);

  struct Case {
    const char* what;
    std::string arguments;
    const char* code;
  };
  const std::vector<Case> cases{
      {"size mismatch", "--golden=" + quoted(dir / "g100.bin") + " --actual=" + quoted(dir / "a99.bin"),
       "EE7001"},
      {"dtype mismatch", "--golden=" + quoted(dir / "f32.npy") + " --actual=" + quoted(dir / "i32.npy"),
       "EE7002"},
      {"truncated .npy", "--golden=" + quoted(dir / "f32.npy") + " --actual=" + quoted(dir / "truncated.npy"),
       "EE4004"},
      {"raw file not a whole number of values",
       "--golden=" + quoted(dir / "ten_bytes.bin") + " --actual=" + quoted(dir / "ten_bytes.bin"), "EE4004"},
      {"missing file", "--golden=" + quoted(dir / "g100.bin") + " --actual=" + quoted(dir / "nowhere.bin"),
       "EE4001"},
      {"--shape not matching the element count",
       "--golden=" + quoted(dir / "g100.bin") + " --actual=" + quoted(dir / "g100.bin") +
           " --shape=1,64,112,112",
       "EE7001"},
      {"unknown flag", "--golden=a --actual=b --abs_tolerence=1", "EE5008"},
      {"missing --actual", "--golden=a", "EE5008"},
      {"files and directories mixed", "--golden=a --actual=b --golden_dir=c", "EE5008"},
      {"flag without its value", "--golden=a --actual", "EE5008"},
      {"tolerance that is not a number", "--golden=a --actual=b --abs_tolerance=small", "EE5003"},
      {"unknown dtype",
       "--golden=" + quoted(dir / "g100.bin") + " --actual=" + quoted(dir / "g100.bin") + " --dtype=float128",
       "EE5007"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const auto result = op_validate(c.arguments, dir / "log");
    INFO(result.output);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find(c.code) != std::string::npos);
  }
  // The unknown flag comes with a suggestion.
  CHECK(op_validate("--golden=a --actual=b --abs_tolerence=1", dir / "log")
            .output.find("did you mean 'abs_tolerance'") != std::string::npos);
}
