// The float32 kernels (float32_block_kernels.hpp: AVX-512 reading float32 in place where the CPU
// has it, else widening) against plain long-double sums of the same formulas, block by block;
// and a whole float32 comparison (NaN, Inf, failures, fp16 overflow, worst elements, histogram,
// channel concentration) against the same values compared as float64 tensors, which take the
// float64 kernels.
#include <doctest/doctest.h>

#include <asc/sdk/half.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "element_errors.hpp"
#include "float32_block_kernels.hpp"
#include "support.hpp"
#include "tensor_statistics.hpp"

using namespace asc;
using namespace asc::validator;
using doctest::Approx;

namespace {

struct BlockValues {
  std::vector<float> golden, actual;
};

// Golden in [-4, 4), actual = golden rounded to float16, with a few large errors planted so that
// some elements fail the seed's tolerances.
BlockValues block_values(std::size_t count, unsigned seed) {
  BlockValues v{std::vector<float>(count), std::vector<float>(count)};
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  for (float& g : v.golden) g = uniform(random);
  round_to_f16(v.golden, v.actual);
  for (std::size_t i = 3; i < count; i += 37) v.actual[i] = v.golden[i] * 1.5f;
  return v;
}

// |got - expected| within `relative` of the sum of the terms' magnitudes.
void check_sum(double got, long double expected, long double magnitude, double relative) {
  CHECK(std::fabs(static_cast<long double>(got) - expected) <= relative * magnitude + 1e-300L);
}

}  // namespace

TEST_CASE("float32 first pass: sums, extremes, failures and errors of every block length") {
  INFO("kernels reading float32 in place (AVX-512): " << float32_kernels_in_place());
  for (std::size_t count : {1u, 5u, 8u, 9u, 63u, 200u, 255u, 256u}) {
    CAPTURE(count);
    const BlockValues v = block_values(count, static_cast<unsigned>(count));
    std::vector<double> abs_error(kBlockSize, -1.0);
    const FirstPassSums s = first_pass_block(v.golden.data(), v.actual.data(), count, 1e-3, 1e-2, abs_error.data());
    long double abs_sum = 0, error_sum = 0, rel_sum = 0, accumulated = 0, actual_sum = 0, golden_sum = 0;
    long double abs_magnitude = 0, actual_magnitude = 0, golden_magnitude = 0;
    double abs_max = 0, rel_max = 0;
    float a_min = v.actual[0], a_max = v.actual[0], g_min = v.golden[0], g_max = v.golden[0];
    std::int64_t failing = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const double g = v.golden[i], a = v.actual[i], abs = std::fabs(a - g);
      const double rel = abs / (std::fabs(g) + 1e-12);
      CHECK(abs_error[i] == abs);
      abs_sum += abs;
      error_sum += a - g;
      rel_sum += rel;
      if (std::fabs(g) > std::numeric_limits<double>::epsilon()) accumulated += abs / std::fabs(g);
      actual_sum += a;
      golden_sum += g;
      abs_magnitude += abs;
      actual_magnitude += std::fabs(a);
      golden_magnitude += std::fabs(g);
      abs_max = std::max(abs_max, abs);
      rel_max = std::max(rel_max, rel);
      a_min = std::min(a_min, v.actual[i]);
      a_max = std::max(a_max, v.actual[i]);
      g_min = std::min(g_min, v.golden[i]);
      g_max = std::max(g_max, v.golden[i]);
      failing += abs > 1e-3 || rel > 1e-2 ? 1 : 0;
    }
    if (count < kBlockSize) CHECK(abs_error[count] == -1.0);  // nothing written past the block
    check_sum(s.abs_error_sum, abs_sum, abs_magnitude, 1e-15);
    check_sum(s.error_sum, error_sum, abs_magnitude, 1e-15);
    check_sum(s.rel_error_sum, rel_sum, rel_sum, 1e-15);
    check_sum(s.accumulated_rel_error, accumulated, accumulated, 1e-15);
    check_sum(s.actual_sum, actual_sum, actual_magnitude, 1e-15);
    check_sum(s.golden_sum, golden_sum, golden_magnitude, 1e-15);
    CHECK(s.abs_error_max == abs_max);
    CHECK(s.rel_error_max == rel_max);
    CHECK(s.actual_min == a_min);
    CHECK(s.actual_max == a_max);
    CHECK(s.golden_min == g_min);
    CHECK(s.golden_max == g_max);
    CHECK(s.failing == failing);
    CHECK(s.finite());
  }
}

TEST_CASE("float32 second pass: KL sums and centred moments, with few and many far elements") {
  // far_every: every how-many-th element is put at the minimum on one side only, so that its P/Q is
  // far from 1 (0: none; 64: a few per block, fixed with std::log; 4: many, the fast_log redo).
  for (std::size_t far_every : {0u, 64u, 4u}) {
    for (std::size_t count : {7u, 8u, 100u, 256u}) {
      CAPTURE(far_every);
      CAPTURE(count);
      BlockValues v = block_values(count, static_cast<unsigned>(count + far_every));
      v.golden[0] = -4.0f;  // fixes both minima and maxima
      v.actual[0] = -4.0f;
      v.golden[count - 1] = 4.0f;
      v.actual[count - 1] = 4.0f;
      if (far_every != 0)
        for (std::size_t i = 1; i + 1 < count; i += far_every) v.actual[i] = -4.0f;
      SecondPassConstants c;
      c.actual_offset = c.golden_offset = -4.0;
      c.actual_scale = c.golden_scale = 1.0 / 8.0;
      c.actual_mean = 0.25;
      c.golden_mean = -0.125;
      c.error_mean = 0.0625;
      c.normalised = true;
      const SecondPassSums s = second_pass_block(v.golden.data(), v.actual.data(), count, c);
      const long double floor = std::numeric_limits<float>::epsilon();
      long double p_sum = 0, q_sum = 0, p_log_ratio = 0, magnitude = 0, aa = 0, gg = 0, ee = 0, eg = 0;
      for (std::size_t i = 0; i < count; ++i) {
        const long double a = v.actual[i], g = v.golden[i];
        const long double p = std::max((a + 4) / 8, floor), q = std::max((g + 4) / 8, floor);
        p_sum += p;
        q_sum += q;
        p_log_ratio += p * std::log(p / q);
        magnitude += std::fabs(p * std::log(p / q));
        const long double ca = a - 0.25L, cg = g + 0.125L, ce = (a - g) - 0.0625L;
        aa += ca * ca;
        gg += cg * cg;
        ee += ce * ce;
        eg += ce * cg;
      }
      check_sum(s.kl_p_sum, p_sum, p_sum, 1e-15);
      check_sum(s.kl_q_sum, q_sum, q_sum, 1e-15);
      check_sum(s.kl_p_log_ratio, p_log_ratio, magnitude, 1e-14);
      check_sum(s.centered_actual_squares, aa, aa, 1e-15);
      check_sum(s.centered_golden_squares, gg, gg, 1e-15);
      check_sum(s.centered_error_squares, ee, ee, 1e-14);
      check_sum(s.centered_error_golden, eg, std::sqrt(ee * gg), 1e-14);
    }
  }
}

TEST_CASE("float32 kernels leave non-finite blocks to their caller") {
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    BlockValues v = block_values(100, 5);
    v.actual[97] = bad;  // in the last, partial vector
    std::vector<double> abs_error(kBlockSize);
    CHECK_FALSE(first_pass_block(v.golden.data(), v.actual.data(), 100, 1e-3, 1e-2, abs_error.data()).finite());
    SecondPassConstants c;
    c.actual_offset = c.golden_offset = -4.0;
    c.actual_scale = c.golden_scale = 1.0 / 8.0;
    c.normalised = true;
    CHECK_FALSE(second_pass_block(v.golden.data(), v.actual.data(), 100, c).finite());
  }
}

TEST_CASE("a float32 comparison reports what the same values compared as float64 do") {
  // NCHW, 2 x 3 x 300 x 500 = 900000 elements: two threads' chunks and a partial last block.
  const Shape shape{2, 3, 300, 500};
  const std::size_t n = 900'000;
  std::vector<float> golden(n), actual(n);
  std::mt19937 random(11);
  std::normal_distribution<float> normal(0.25f, 1.5f);
  for (float& g : golden) g = normal(random);
  round_to_f16(golden, actual);
  for (std::size_t i = 450'000; i < 600'000; i += 101) actual[i] *= 1.05f;  // failures in channel 0 of image 1
  golden[1234] = 70000.0f;                                               // fp16 overflow
  actual[1234] = std::numeric_limits<float>::infinity();
  golden[777'777] = std::numeric_limits<float>::quiet_NaN();
  actual[888'888] = -std::numeric_limits<float>::infinity();
  const std::vector<double> golden64(golden.begin(), golden.end()), actual64(actual.begin(), actual.end());
  auto as_float = [&](const std::vector<float>& v) { return Tensor::from_vector<float>(shape, v); };
  auto as_double = [&](const std::vector<double>& v) { return Tensor::from_vector<double>(shape, v); };
  const auto f32 = test::compare(as_float(golden), as_float(actual));
  const auto f64 = test::compare(as_double(golden64), as_double(actual64));
  const TensorStatistics &a = f32.stats, &b = f64.stats;
  CHECK(a.finite_pairs == b.finite_pairs);
  CHECK(a.failing == b.failing);
  CHECK(a.abs_failing == b.abs_failing);
  CHECK(a.rel_failing == b.rel_failing);
  CHECK(a.fp16_overflow == b.fp16_overflow);
  CHECK(a.first_fp16_overflow == b.first_fp16_overflow);
  CHECK(a.nan_mismatches == b.nan_mismatches);
  CHECK(a.inf_mismatches == b.inf_mismatches);
  CHECK(a.first_failing == b.first_failing);
  CHECK(a.golden_nonfinite.first_nan == b.golden_nonfinite.first_nan);
  CHECK(a.actual_nonfinite.first_inf == b.actual_nonfinite.first_inf);
  CHECK(a.abs_histogram == b.abs_histogram);
  CHECK(a.channel_failures == b.channel_failures);
  CHECK(a.row_failures == b.row_failures);
  CHECK(a.col_failures == b.col_failures);
  REQUIRE(a.worst_abs.size() == b.worst_abs.size());
  for (std::size_t i = 0; i < a.worst_abs.size(); ++i) {
    CHECK(a.worst_abs[i].index == b.worst_abs[i].index);
    CHECK(a.worst_rel[i].index == b.worst_rel[i].index);
  }
  const auto& m = f32.metrics;
  const auto& r = f64.metrics;
  CHECK(m.max_absolute_error == r.max_absolute_error);
  CHECK(m.max_relative_error == r.max_relative_error);
  CHECK(m.cosine_similarity == Approx(r.cosine_similarity).epsilon(1e-14));
  CHECK(m.mean_absolute_error == Approx(r.mean_absolute_error).epsilon(1e-13));
  CHECK(m.mean_relative_error == Approx(r.mean_relative_error).epsilon(1e-13));
  CHECK(m.accumulated_relative_error == Approx(r.accumulated_relative_error).epsilon(1e-13));
  CHECK(m.root_mean_square_error == Approx(r.root_mean_square_error).epsilon(1e-13));
  CHECK(m.relative_euclidean_distance == Approx(r.relative_euclidean_distance).epsilon(1e-13));
  CHECK(m.kullback_leibler_divergence == Approx(r.kullback_leibler_divergence).epsilon(1e-9));
  CHECK(m.golden_std == Approx(r.golden_std).epsilon(1e-13));
  CHECK(m.actual_std == Approx(r.actual_std).epsilon(1e-13));
  CHECK(f32.min_abs_tolerance == f64.min_abs_tolerance);
  CHECK(f32.min_rel_tolerance == f64.min_rel_tolerance);
  CHECK(f32.passed == f64.passed);
  // Chunks go to whichever thread is free, but their sums are added in chunk order: a second
  // comparison gives the same bits.
  const auto again = test::compare(as_float(golden), as_float(actual));
  CHECK(again.metrics.kullback_leibler_divergence == m.kullback_leibler_divergence);
  CHECK(again.metrics.cosine_similarity == m.cosine_similarity);
  CHECK(again.metrics.mean_relative_error == m.mean_relative_error);
  CHECK(again.metrics.golden_std == m.golden_std);
  CHECK(a.failing > 1000);  // the planted failures, the NaN and the two Infs are there
  CHECK(a.nan_mismatches == 1);
  CHECK(a.inf_mismatches == 2);
  CHECK(a.fp16_overflow == 1);
}
