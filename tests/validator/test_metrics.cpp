// The metrics against hand-computed values on tiny tensors, and against a plain long-double
// implementation of msaccucmp's formulas on a large tensor (which takes the threaded, vectorised
// path, including the fast logarithm in the KL divergence).
#include <doctest/doctest.h>

#include <asc/sdk/half.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "precision_validator.hpp"
#include "support.hpp"

using namespace asc;
using namespace asc::test;
using doctest::Approx;

TEST_CASE("cosine similarity of orthogonal vectors is 0, of parallel ones 1") {
  CHECK(compare(floats({2}, {1, 0}), floats({2}, {0, 1})).metrics.cosine_similarity == Approx(0.0));
  CHECK(compare(floats({3}, {1, 2, 3}), floats({3}, {2, 4, 6})).metrics.cosine_similarity == Approx(1.0));
  // msaccucmp: both all-zero -> 1; one side all-zero -> NaN; a scalar -> 1.
  CHECK(compare(floats({2}, {0, 0}), floats({2}, {0, 0})).metrics.cosine_similarity == 1.0);
  CHECK(std::isnan(compare(floats({2}, {1, 2}), floats({2}, {0, 0})).metrics.cosine_similarity));
  CHECK(compare(floats({}, {3}), floats({}, {-3})).metrics.cosine_similarity == 1.0);
}

TEST_CASE("absolute, squared and relative errors by hand") {
  // golden [1,2,3,4], actual [1.5,2,2,4]: errors [0.5, 0, -1, 0].
  const auto m = compare(floats({4}, {1, 2, 3, 4}), floats({4}, {1.5f, 2, 2, 4})).metrics;
  CHECK(m.max_absolute_error == Approx(1.0));
  CHECK(m.mean_absolute_error == Approx(0.375));
  CHECK(m.root_mean_square_error == Approx(std::sqrt(1.25 / 4)));
  CHECK(m.relative_euclidean_distance == Approx(std::sqrt(1.25 / 30)));
  CHECK(m.cosine_similarity == Approx(27.5 / (std::sqrt(26.25) * std::sqrt(30.0))));
  // Relative errors 0.5/1 and 1/3; msaccucmp's accumulated |a/g - 1| is their sum.
  CHECK(m.max_relative_error == Approx(0.5));
  CHECK(m.mean_relative_error == Approx((0.5 + 1.0 / 3) / 4));
  CHECK(m.accumulated_relative_error == Approx(0.5 + 1.0 / 3));
  // Population standard deviations: golden sqrt(1.25); actual mean 2.375.
  CHECK(m.golden_mean == Approx(2.5));
  CHECK(m.golden_std == Approx(std::sqrt(1.25)));
  CHECK(m.actual_mean == Approx(2.375));
  CHECK(m.actual_std ==
        Approx(std::sqrt((0.875 * 0.875 + 0.375 * 0.375 + 0.375 * 0.375 + 1.625 * 1.625) / 4)));
  CHECK(validator::standard_deviation_text(m) == "(2.375;0.960),(2.500;1.118)");
}

TEST_CASE("the relative error uses the seed's epsilon 1e-12") {
  // Golden 0, actual 1e-12: RE = 1e-12 / (0 + 1e-12) = 1. msaccucmp's accumulated error skips it.
  const auto m = compare(doubles({2}, {0.0, 2.0}), doubles({2}, {1e-12, 2.0})).metrics;
  CHECK(m.max_relative_error == Approx(1.0));
  CHECK(m.mean_relative_error == Approx(0.5));
  CHECK(m.accumulated_relative_error == 0.0);
  // Golden 1e-12, actual 3e-12: RE = 2e-12 / 2e-12 = 1 (without epsilon it would be 2).
  CHECK(compare(doubles({1}, {1e-12}), doubles({1}, {3e-12})).metrics.max_relative_error == Approx(1.0));
}

TEST_CASE("KL divergence follows msaccucmp's min-max normalisation") {
  // golden [0,1] -> Q = [eps, 1]; actual [1,0] -> P = [1, eps] (eps = float32 epsilon).
  // p = P/(1+eps), q = Q/(1+eps): KL = (1-eps)/(1+eps) * log(1/eps).
  const double eps = std::numeric_limits<float>::epsilon();
  CHECK(compare(floats({2}, {0, 1}), floats({2}, {1, 0})).metrics.kullback_leibler_divergence ==
        Approx((1 - eps) / (1 + eps) * std::log(1 / eps)));
  // Probability vectors: golden [0.2,0.3,0.5] -> Q = [eps, 1/3, 1]; actual [0.1,0.3,0.6] -> P = [eps, 0.4,
  // 1].
  const double q_sum = eps + 1.0 / 3 + 1, p_sum = eps + 0.4 + 1;
  const double p[3] = {eps / p_sum, 0.4 / p_sum, 1 / p_sum},
               q[3] = {eps / q_sum, (1.0 / 3) / q_sum, 1 / q_sum};
  double expected = 0;
  for (int i = 0; i < 3; ++i) expected += p[i] * std::log(p[i] / q[i]);
  CHECK(compare(doubles({3}, {0.2, 0.3, 0.5}), doubles({3}, {0.1, 0.3, 0.6}))
            .metrics.kullback_leibler_divergence == Approx(expected).epsilon(1e-9));
  // Identical tensors: exactly 0 (msaccucmp snaps |KL| < eps to 0).
  CHECK(compare(floats({3}, {1, 2, 3}), floats({3}, {1, 2, 3})).metrics.kullback_leibler_divergence == 0.0);
}

namespace {

struct ReferenceMetrics {
  long double cosine, max_abs, mean_abs, rmse, red, kl, are, max_rel, mean_rel, golden_std;
};

// msaccucmp's formulas written out plainly, in long double.
ReferenceMetrics reference_metrics(const std::vector<float>& golden, const std::vector<float>& actual) {
  const std::size_t n = golden.size();
  long double ag = 0, aa = 0, gg = 0, dd = 0, abs_sum = 0, max_abs = 0, are = 0, rel_sum = 0, max_rel = 0,
              g_sum = 0;
  long double a_min = actual[0], a_max = actual[0], g_min = golden[0], g_max = golden[0];
  for (std::size_t i = 0; i < n; ++i) {
    const long double g = golden[i], a = actual[i], d = a - g;
    ag += a * g;
    aa += a * a;
    gg += g * g;
    dd += d * d;
    abs_sum += std::fabs(d);
    max_abs = std::max(max_abs, std::fabs(d));
    if (std::fabs(g) > std::numeric_limits<double>::epsilon()) are += std::fabs(a / g - 1);
    const long double rel = std::fabs(d) / (std::fabs(g) + 1e-12L);
    rel_sum += rel;
    max_rel = std::max(max_rel, rel);
    g_sum += g;
    a_min = std::min(a_min, a);
    a_max = std::max(a_max, a);
    g_min = std::min(g_min, g);
    g_max = std::max(g_max, g);
  }
  const long double floor = std::numeric_limits<float>::epsilon();
  long double p_sum = 0, q_sum = 0;
  std::vector<long double> p(n), q(n);
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = std::max((actual[i] - a_min) / (a_max - a_min), floor);
    q[i] = std::max((golden[i] - g_min) / (g_max - g_min), floor);
    p_sum += p[i];
    q_sum += q[i];
  }
  long double kl = 0, g_var = 0;
  const long double g_mean = g_sum / n;
  for (std::size_t i = 0; i < n; ++i) {
    kl += p[i] / p_sum * std::log((p[i] / p_sum) / (q[i] / q_sum));
    g_var += (golden[i] - g_mean) * (golden[i] - g_mean);
  }
  return {ag / std::sqrt(aa * gg),
          max_abs,
          abs_sum / n,
          std::sqrt(dd / n),
          std::sqrt(dd / gg),
          kl,
          are,
          max_rel,
          rel_sum / n,
          std::sqrt(g_var / n)};
}

}  // namespace

TEST_CASE("metrics of a large tensor match a plain long-double implementation") {
  const std::size_t n = 3'000'017;  // several threads' chunks and a partial last block
  std::vector<float> golden(n), actual(n);
  std::mt19937 random(7);
  std::normal_distribution<float> normal(0.5f, 2.0f);
  for (float& v : golden) v = normal(random);
  round_to_f16(golden, actual);  // an fp16 pipeline's result
  const auto c = compare(Tensor::from_vector<float>({static_cast<std::int64_t>(n)}, golden),
                         Tensor::from_vector<float>({static_cast<std::int64_t>(n)}, actual));
  const ReferenceMetrics r = reference_metrics(golden, actual);
  const auto& m = c.metrics;
  CHECK(m.cosine_similarity == Approx(static_cast<double>(r.cosine)).epsilon(1e-12));
  CHECK(m.max_absolute_error == static_cast<double>(r.max_abs));
  CHECK(m.mean_absolute_error == Approx(static_cast<double>(r.mean_abs)).epsilon(1e-10));
  CHECK(m.root_mean_square_error == Approx(static_cast<double>(r.rmse)).epsilon(1e-9));
  CHECK(m.relative_euclidean_distance == Approx(static_cast<double>(r.red)).epsilon(1e-9));
  CHECK(m.kullback_leibler_divergence == Approx(static_cast<double>(r.kl)).epsilon(1e-6));
  CHECK(m.accumulated_relative_error == Approx(static_cast<double>(r.are)).epsilon(1e-10));
  CHECK(m.max_relative_error == Approx(static_cast<double>(r.max_rel)).epsilon(1e-12));
  CHECK(m.mean_relative_error == Approx(static_cast<double>(r.mean_rel)).epsilon(1e-10));
  CHECK(m.golden_std == Approx(static_cast<double>(r.golden_std)).epsilon(1e-10));
  CHECK(c.stats.elements == static_cast<std::int64_t>(n));
}

TEST_CASE("the KL divergence is the same whichever way its logarithms are taken") {
  // The KL pass takes log(P/Q) as 2 atanh((P-Q)/(P+Q)) where P/Q is within [sqrt(1/2), sqrt(2)],
  // fixes a block's few other elements with std::log, and redoes a block with many of them with
  // a range-reduced logarithm. Each case against the long-double formulas.
  const std::size_t n = 16 * 256 + 77;  // 16 full blocks and a partial one
  std::mt19937 random(11);
  std::uniform_real_distribution<float> uniform(-3.0f, 5.0f);
  std::vector<float> golden(n), close(n), planted(n), unrelated(n);
  for (float& v : golden) v = uniform(random);
  round_to_f16(golden, close);  // every P/Q near 1 but at the minimum's neighbours
  planted = close;
  for (std::size_t i = 100; i < n; i += 700) planted[i] = -3.0f;  // a few far elements per block
  for (float& v : unrelated) v = uniform(random);                 // most P/Q far from 1
  for (const auto* actual : {&close, &planted, &unrelated}) {
    const auto m = compare(Tensor::from_vector<float>({static_cast<std::int64_t>(n)}, golden),
                           Tensor::from_vector<float>({static_cast<std::int64_t>(n)}, *actual))
                       .metrics;
    const ReferenceMetrics r = reference_metrics(golden, *actual);
    CHECK(m.kullback_leibler_divergence == Approx(static_cast<double>(r.kl)).epsilon(1e-9));
  }
}

TEST_CASE("any dtype is compared as double; strided views like their contiguous copies") {
  const Tensor golden = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor actual(DType::Float16, {2, 3});
  const float values[6] = {1, 2, 3.5f, 4, 5, 6};
  for (int i = 0; i < 6; ++i) actual.data<float16>()[i] = float16(values[i]);
  CHECK(compare(golden, actual).metrics.max_absolute_error == Approx(0.5));
  const Tensor ints_golden = Tensor::from_vector<std::int32_t>({3}, {1, 2, 3});
  const Tensor ints_actual = Tensor::from_vector<std::int64_t>({3}, {1, 2, 5});
  CHECK(compare(ints_golden, ints_actual).metrics.max_absolute_error == Approx(2.0));

  // The transpose of [[1,2,3],[4,5,6]] as a strided view over the same buffer.
  const Tensor transposed(golden.buffer(), 0, DType::Float32, {3, 2}, {1, 3});
  const Tensor transposed_copy = floats({3, 2}, {1, 4, 2, 5, 3, 6});
  const Tensor shifted = floats({3, 2}, {1, 4, 2, 5, 3, 7});
  const auto strided = compare(transposed, shifted), contiguous = compare(transposed_copy, shifted);
  CHECK(strided.metrics.mean_absolute_error == Approx(contiguous.metrics.mean_absolute_error));
  CHECK(strided.stats.worst_abs.front().index == 5);
}

TEST_CASE("the plugin's validator reports the metrics under msit's names") {
  const validator::PrecisionValidator validator;
  CHECK(validator.name() == "precision");
  const ComparisonResult result = validator.compare(floats({4}, {1, 2, 3, 4}).view(),
                                                    floats({4}, {1.5f, 2, 2, 4}).view(), ComparisonOptions{});
  CHECK_FALSE(result.passed);
  for (const char* name :
       {"CosineSimilarity", "MaxAbsoluteError", "AccumulatedRelativeError", "RelativeEuclideanDistance",
        "KullbackLeiblerDivergence", "MeanAbsoluteError", "RootMeanSquareError", "MaxRelativeError",
        "MeanRelativeError", "ActualStandardDeviation", "GoldenStandardDeviation"})
    CHECK(result.metrics.count(name) == 1);
  CHECK(result.metrics.at("RootMeanSquareError") == Approx(std::sqrt(1.25 / 4)));
  CHECK(result.metrics.at("FailingElements") == 2);
  CHECK_FALSE(result.diagnostics.empty());
}
