// The diagnosis: NaN/Inf positions, fp16 overflow, scale errors, where failures concentrate,
// the worst elements, and the error histogram.
#include <doctest/doctest.h>

#include <asc/sdk/half.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "report_common.hpp"
#include "support.hpp"

using namespace asc;
using namespace asc::test;
using doctest::Approx;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// 1x2x3x4 with values 1..24.
std::vector<float> ramp() {
  std::vector<float> v(24);
  std::iota(v.begin(), v.end(), 1.0f);
  return v;
}

}  // namespace

TEST_CASE("NaN and Inf are counted per side with their first coordinates") {
  std::vector<float> golden = ramp(), actual = ramp();
  actual[23] = std::nanf("");  // [0,1,2,3]
  actual[1] = kInf;            // [0,0,0,1]
  golden[5] = -kInf;           // [0,0,1,1], matched by the same -Inf in actual: not a failure
  actual[5] = -kInf;
  golden[7] = std::nanf("");  // [0,0,1,3], NaN on both sides: not a failure
  actual[7] = std::nanf("");
  const auto c = compare(floats({1, 2, 3, 4}, golden), floats({1, 2, 3, 4}, actual));
  CHECK_FALSE(c.passed);
  CHECK(c.stats.failing == 2);
  CHECK(c.stats.nan_mismatches == 1);
  CHECK(c.stats.inf_mismatches == 1);
  CHECK(c.stats.actual_nonfinite.nan == 2);
  CHECK(c.stats.actual_nonfinite.pos_inf == 1);
  CHECK(c.stats.actual_nonfinite.neg_inf == 1);
  CHECK(c.stats.golden_nonfinite.nan == 1);
  CHECK(c.coordinates(c.stats.actual_nonfinite.first_nan.at(0)) == "[0,0,1,3]");
  CHECK(c.coordinates(c.stats.actual_nonfinite.first_nan.at(1)) == "[0,1,2,3]");
  CHECK(c.coordinates(c.stats.actual_nonfinite.first_inf.at(0)) == "[0,0,0,1]");
  CHECK(has_class(c, "nan"));
  CHECK(has_class(c, "inf"));
  CHECK_FALSE(has_class(c, "absolute"));  // the finite elements are equal
  CHECK(diagnosed(c, "actual has 2 NaN (first at [0,0,1,3], [0,1,2,3])"));
  CHECK(c.stats.finite_pairs == 20);
  CHECK(c.metrics.max_absolute_error == 0.0);  // metrics cover the finite pairs
}

TEST_CASE("NaN among many elements is found in any block and thread") {
  const std::int64_t n = 2'000'000;
  std::vector<float> golden(n, 1.0f), actual(n, 1.0f);
  actual[1'500'001] = std::nanf("");
  const auto c = compare(floats({n}, golden), floats({n}, actual));
  CHECK(c.stats.nan_mismatches == 1);
  CHECK(c.coordinates(*c.stats.first_failing) == "[1500001]");
  CHECK(c.stats.finite_pairs == n - 1);
}

TEST_CASE("a consistent scale of 1.01 is detected and reported") {
  std::vector<float> golden(4096), actual(4096);
  for (std::size_t i = 0; i < golden.size(); ++i) {
    golden[i] = std::sin(0.37f * static_cast<float>(i)) * 3.0f;
    actual[i] = golden[i] * 1.01f;
  }
  const auto c = compare(floats({4096}, golden), floats({4096}, actual), 1e-3, 1e-3);
  CHECK(has_class(c, "scale_offset"));
  CHECK(c.scale.detected);
  CHECK(c.scale.scale == Approx(1.01).epsilon(1e-6));
  CHECK(c.scale.offset == Approx(0.0).epsilon(1e-6));
  CHECK(c.scale.pearson == Approx(1.0));
  CHECK(diagnosed(c, "actual ~ 1.01 * golden"));
}

TEST_CASE("fp16 rounding noise is not a scale error") {
  std::vector<float> golden(4096), actual(4096);
  for (std::size_t i = 0; i < golden.size(); ++i) golden[i] = std::sin(0.37f * static_cast<float>(i)) * 3.0f;
  round_to_f16(golden, actual);
  const auto c = compare(floats({4096}, golden), floats({4096}, actual), 1e-4, 1e-4);
  CHECK_FALSE(c.passed);
  CHECK_FALSE(c.scale.detected);
  CHECK_FALSE(has_class(c, "scale_offset"));
}

TEST_CASE("goldens beyond the float16 range are flagged as fp16 overflow") {
  // An fp16 pipeline turns 70000 into Inf.
  const auto c =
      compare(floats({1, 1, 2, 2}, {1, 70000, 2, -80000}), floats({1, 1, 2, 2}, {1, kInf, 2, -kInf}));
  CHECK(c.stats.fp16_overflow == 2);
  CHECK(c.coordinates(*c.stats.first_fp16_overflow) == "[0,0,0,1]");
  CHECK(has_class(c, "fp16_overflow"));
  CHECK(has_class(c, "inf"));
  CHECK(diagnosed(c, "beyond the float16 range"));
  CHECK(diagnosed(c, "largest |x| = 80000"));
}

TEST_CASE("failures concentrated in one channel are reported as such") {
  // 1x8x4x4: every element of channel 5 is off, plus one element of channel 2.
  std::vector<float> golden(128, 1.0f), actual(128, 1.0f);
  for (int i = 5 * 16; i < 6 * 16; ++i) actual[i] = 1.5f;
  actual[2 * 16 + 3] = 1.5f;
  const auto c = compare(floats({1, 8, 4, 4}, golden), floats({1, 8, 4, 4}, actual));
  REQUIRE(c.concentration.size() == 3);
  CHECK(c.concentration[0].axis == "channel");
  CHECK(c.concentration[0].failures[5] == 16);
  CHECK(c.concentration[0].failures[2] == 1);
  CHECK(c.concentration[0].concentrated);
  CHECK(diagnosed(c, "94% of failures in channel 5 (of 8)"));
  // Rows and columns: failures are spread evenly there.
  CHECK_FALSE(c.concentration[1].concentrated);
}

TEST_CASE("failures along a border row are reported") {
  // 1x4x8x8: row 0 of every channel is off (a padding bug shows like this).
  std::vector<float> golden(256, 2.0f), actual(256, 2.0f);
  for (int c = 0; c < 4; ++c)
    for (int w = 0; w < 8; ++w) actual[c * 64 + w] = 3.0f;
  const auto c = compare(floats({1, 4, 8, 8}, golden), floats({1, 4, 8, 8}, actual));
  CHECK(diagnosed(c, "100% of failures in row 0 (first) (of 8)"));
  CHECK(diagnosed(c, "failures spread over 4 of 4 channels"));
}

TEST_CASE("the worst elements come with coordinates and values, worst first") {
  const auto c = compare(floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({2, 3}, {1, 2.5f, 3, 4, 8, 6.1f}));
  REQUIRE(c.stats.worst_abs.size() == 6);
  CHECK(c.coordinates(c.stats.worst_abs[0].index) == "[1,1]");
  CHECK(c.stats.worst_abs[0].golden == 5.0);
  CHECK(c.stats.worst_abs[0].actual == 8.0);
  CHECK(c.stats.worst_abs[0].abs_error == Approx(3.0));
  CHECK(c.stats.worst_abs[0].rel_error == Approx(0.6));
  CHECK(c.coordinates(c.stats.worst_abs[1].index) == "[0,1]");
  CHECK(c.coordinates(c.stats.worst_rel[0].index) == "[1,1]");
  CHECK(diagnosed(c, "worst abs error #1 at [1,1]: golden=5 actual=8"));
}

TEST_CASE("the error histogram counts every element in power-of-two bins") {
  // abs errors: 0, 0, 0.25, 0.75, 3.
  const auto c = compare(doubles({5}, {1, 1, 1, 1, 1}), doubles({5}, {1, 1, 1.25, 1.75, 4}));
  const validator::ErrorHistogram h = validator::octave_bins(c.stats.abs_histogram);
  CHECK(h.zero == 2);
  REQUIRE(h.bins.size() == 4);  // [0.25,0.5) [0.5,1) [1,2) [2,4)
  CHECK(h.bins[0].low == 0.25);
  CHECK(h.bins[0].count == 1);
  CHECK(h.bins[1].count == 1);
  CHECK(h.bins[2].count == 0);
  CHECK(h.bins[3].low == 2.0);
  CHECK(h.bins[3].count == 1);
}
