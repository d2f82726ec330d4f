// The seed's thresholds: an element fails when its absolute OR its relative error exceeds the
// tolerance; the comparison passes when the failing fraction is at most error_rate_threshold.
// And the smallest tolerances that would have passed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "support.hpp"

using namespace asc;
using namespace asc::test;
using doctest::Approx;

TEST_CASE("an element fails on its absolute error alone") {
  // abs errors 0, 5e-4, 2e-3, 0; the relative tolerance is out of the way.
  const auto c = compare(floats({4}, {1, 1, 1, 1}), floats({4}, {1, 1.0005f, 1.002f, 1}), 1e-3, 1.0);
  CHECK_FALSE(c.passed);
  CHECK(c.stats.failing == 1);
  CHECK(c.stats.abs_failing == 1);
  CHECK(c.stats.rel_failing == 0);
  CHECK(c.error_classes == std::vector<std::string>{"absolute"});
  CHECK(c.coordinates(*c.stats.first_failing) == "[2]");
}

TEST_CASE("an element fails on its relative error alone") {
  // rel errors 0.005 and 0.1; abs errors 0.5 and 1e-4 are within abs_tolerance 1.
  const auto c = compare(doubles({2}, {100, 0.001}), doubles({2}, {100.5, 0.0011}), 1.0, 1e-2);
  CHECK(c.stats.failing == 1);
  CHECK(c.error_classes == std::vector<std::string>{"relative"});
}

TEST_CASE("either criterion fails an element; each failing element counts once") {
  // [0]: abs 0.5 and rel 0.5 both fail; [1]: only abs (rel 0.001); [2]: passes.
  const auto c = compare(doubles({3}, {1, 1000, 1}), doubles({3}, {1.5, 1001, 1}), 0.1, 0.01);
  CHECK(c.stats.failing == 2);
  CHECK(c.stats.abs_failing == 2);
  CHECK(c.stats.rel_failing == 1);
  CHECK(c.error_rate == Approx(2.0 / 3));
}

TEST_CASE("error_rate_threshold lets that fraction of elements fail") {
  const Tensor golden = floats({4}, {1, 1, 1, 1}), actual = floats({4}, {1, 1, 1, 2});  // 1 of 4 fails
  CHECK_FALSE(compare(golden, actual, 1e-3, 1e-2, 0).passed);
  CHECK_FALSE(compare(golden, actual, 1e-3, 1e-2, 0.2).passed);
  const auto allowed = compare(golden, actual, 1e-3, 1e-2, 0.25);
  CHECK(allowed.passed);
  CHECK(allowed.allowed_failures == 1);
  CHECK(allowed.error_classes.empty());            // a passing comparison has no error classes
  CHECK(compare(golden, golden, 0, 0, 0).passed);  // zero tolerance: equal values still pass
}

TEST_CASE("tolerances and the error rate are checked") {
  const Tensor t = floats({1}, {1});
  CHECK(error_code_of([&] { compare(t, t, -1e-3); }) == ErrorCode::ConfigBadValue);
  CHECK(error_code_of([&] { compare(t, t, 1e-3, -1); }) == ErrorCode::ConfigBadValue);
  CHECK(error_code_of([&] { compare(t, t, 1e-3, 1e-2, 1.5); }) == ErrorCode::ConfigBadValue);
}

TEST_CASE("tensors that cannot be compared are EE7001 / EE7002") {
  CHECK(error_code_of([] {
          compare(floats({3}, {1, 2, 3}), floats({2}, {1, 2}));
        }) == ErrorCode::ValidationShapeMismatch);
  CHECK(error_code_of([] {
          compare(floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({3, 2}, {1, 2, 3, 4, 5, 6}));
        }) == ErrorCode::ValidationShapeMismatch);
  CHECK(error_code_of([] {
          compare(floats({2}, {1, 2}), Tensor::from_vector<std::int32_t>({2}, {1, 2}));
        }) == ErrorCode::ValidationDtypeMismatch);
  // Dimensions of 1 do not matter.
  CHECK(compare(floats({1, 3}, {1, 2, 3}), floats({3}, {1, 2, 3})).passed);
}

TEST_CASE("with no failures allowed, the minimum tolerances are the largest errors") {
  const auto c = compare(doubles({3}, {1, 2, 4}), doubles({3}, {1.1, 2, 4.2}));
  CHECK(c.min_abs_tolerance == Approx(0.2));
  CHECK(c.min_rel_tolerance == Approx(0.1));  // 0.1/1 beats 0.2/4
  // Passing with exactly those tolerances, failing just below.
  CHECK(
      compare(doubles({3}, {1, 2, 4}), doubles({3}, {1.1, 2, 4.2}), c.min_abs_tolerance, c.min_rel_tolerance)
          .passed);
  CHECK_FALSE(compare(doubles({3}, {1, 2, 4}), doubles({3}, {1.1, 2, 4.2}), c.min_abs_tolerance * 0.999,
                      c.min_rel_tolerance)
                  .passed);
}

TEST_CASE("with failures allowed, the minimum tolerance lets exactly that many through") {
  // abs errors 0.1, 0.2, 0.3, 0.4 with one failure allowed: the second largest, 0.3.
  const auto small =
      compare(doubles({4}, {0, 0, 0, 0}), doubles({4}, {0.1, 0.4, 0.2, 0.3}), 1e-3, 1e-2, 0.25);
  CHECK(small.min_abs_tolerance == Approx(0.3));

  // A million errors and 1% allowed: the (k+1)-th largest, found here by sorting.
  const std::int64_t n = 1'000'000;
  std::vector<double> golden(n), actual(n), abs_errors(n), rel_errors(n);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> value(0.5, 2.0), noise(-1e-3, 1e-3);
  for (std::int64_t i = 0; i < n; ++i) {
    golden[i] = value(random);
    actual[i] = golden[i] + noise(random);
    abs_errors[i] = std::fabs(actual[i] - golden[i]);
    rel_errors[i] = abs_errors[i] / (std::fabs(golden[i]) + 1e-12);
  }
  const auto c = compare(doubles({n}, golden), doubles({n}, actual), 1e-4, 1e-4, 0.01);
  const std::int64_t allowed = n / 100;
  std::sort(abs_errors.begin(), abs_errors.end(), std::greater<>());
  std::sort(rel_errors.begin(), rel_errors.end(), std::greater<>());
  CHECK(c.allowed_failures == allowed);
  CHECK(c.min_abs_tolerance == abs_errors[allowed]);
  CHECK(c.min_rel_tolerance == rel_errors[allowed]);
  CHECK(compare(doubles({n}, golden), doubles({n}, actual), c.min_abs_tolerance, 1e9, 0.01).passed);
}

TEST_CASE("NaN mismatches beyond the allowed failures leave no passing tolerance") {
  const auto c = compare(floats({2}, {1, 2}), floats({2}, {1, std::nanf("")}));
  CHECK(std::isinf(c.min_abs_tolerance));
  CHECK(diagnosed(c, "no tolerance passes"));
}

TEST_CASE("empty tensors pass with nothing to compare") {
  const auto c = compare(floats({0, 3}, {}), floats({0, 3}, {}));
  CHECK(c.passed);
  CHECK(c.stats.elements == 0);
  CHECK(std::isnan(c.metrics.cosine_similarity));
  CHECK(diagnosed(c, "nothing to compare"));
}

TEST_CASE("a NaN or Inf where the golden is finite fails whatever the error rate allowed") {
  // 1 NaN in 1000 elements, 1% allowed to fail: still a failure, classified nan, with coordinates.
  std::vector<float> golden(1000, 1.0f), actual(1000, 1.0f);
  actual[517] = std::nanf("");
  const auto nan = compare(floats({10, 100}, golden), floats({10, 100}, actual), 1e-3, 1e-2, 0.01);
  CHECK(nan.stats.failing == 1);
  CHECK(nan.allowed_failures == 10);
  CHECK_FALSE(nan.passed);
  CHECK(nan.error_classes == std::vector<std::string>{"nan"});
  CHECK(diagnosed(nan, "first at [5,17]"));
  CHECK(diagnosed(nan, "fail the comparison whatever the tolerances"));
  CHECK(std::isinf(nan.min_abs_tolerance));
  // The reverse: a NaN in the golden only, and an Inf in the actual only.
  CHECK_FALSE(compare(floats({10, 100}, actual), floats({10, 100}, golden), 1e-3, 1e-2, 0.01).passed);
  actual[517] = INFINITY;
  const auto inf = compare(floats({10, 100}, golden), floats({10, 100}, actual), 1e-3, 1e-2, 0.01);
  CHECK_FALSE(inf.passed);
  CHECK(inf.error_classes == std::vector<std::string>{"inf"});
  // Matching NaNs on both sides are no mismatch.
  golden[517] = actual[517] = std::nanf("");
  CHECK(compare(floats({10, 100}, golden), floats({10, 100}, actual), 1e-3, 1e-2, 0.01).passed);
}

TEST_CASE("nonfinite_in_error_rate counts NaN/Inf mismatches as ordinary failing elements") {
  std::vector<float> golden(1000, 1.0f), actual(1000, 1.0f);
  actual[3] = std::nanf("");
  validator::VerdictCriteria opt_out;
  opt_out.nonfinite_in_error_rate = true;
  ComparisonOptions options;
  options.error_rate_threshold = 0.01;
  const auto c = validator::compare_tensors(floats({1000}, golden).view(), floats({1000}, actual).view(),
                                            options, opt_out);
  CHECK(c.passed);
  options.error_rate_threshold = 0;  // ...but still one of the failing elements
  CHECK_FALSE(validator::compare_tensors(floats({1000}, golden).view(), floats({1000}, actual).view(), options,
                                         opt_out)
                  .passed);
}

namespace {

validator::TensorComparison compare_network(const Tensor& golden, const Tensor& actual, DType precision) {
  return validator::compare_tensors(golden.view(), actual.view(), ComparisonOptions{},
                                    validator::network_criteria(precision, false));
}

}  // namespace

TEST_CASE("network criteria: the relative distance against 10 epsilons of the precision") {
  // actual = 1.005 * golden: RelativeEuclideanDistance 0.005 exactly, cosine 1; every element's
  // relative error (0.005) is within the seed's 1e-2 but its abs error is not within 1e-3.
  const Tensor golden = doubles({4}, {1, -2, 3, 40}), actual = doubles({4}, {1.005, -2.01, 3.015, 40.2});
  const auto fp16 = compare_network(golden, actual, DType::Float16);
  CHECK(fp16.metrics.relative_euclidean_distance == Approx(0.005));
  CHECK(fp16.criteria.relative_distance_maximum == Approx(10.0 / 1024));
  CHECK(fp16.passed);
  CHECK(fp16.stats.failing == 4);  // the element tolerances still count (abs > 1e-3), without deciding
  const auto fp32 = compare_network(golden, actual, DType::Float32);
  CHECK(fp32.criteria.relative_distance_maximum == Approx(10 * 1.1920928955078125e-7));
  CHECK_FALSE(fp32.passed);
  CHECK(fp32.error_classes == std::vector<std::string>{"relative_distance"});
  // bfloat16: 10 * 2^-7 = 0.078 is above msit's 0.05, which caps it.
  CHECK(validator::network_criteria(DType::BFloat16, false).relative_distance_maximum == 0.05);
}

TEST_CASE("network criteria: a cosine below msit's 0.99 fails; near-zero goldens do not decide") {
  // Orthogonal-ish: cos = (1*1 + 1*0) / (sqrt 2 * 1) = 0.707.
  const auto turned = compare_network(doubles({2}, {1, 1}), doubles({2}, {1, 0}), DType::Float16);
  CHECK(turned.metrics.cosine_similarity == Approx(std::sqrt(0.5)));
  CHECK_FALSE(turned.passed);
  CHECK(turned.error_classes == std::vector<std::string>{"cosine", "relative_distance"});
  // A golden of 1e-9 next to values of 1 with an fp16-sized error on it: the element's relative
  // error is huge (the seed's criteria fail it) but the norm-wise error is 1e-3.
  const Tensor golden = doubles({3}, {1, 1e-9, 1}), actual = doubles({3}, {1.001, 1e-3, 0.999});
  CHECK(compare_network(golden, actual, DType::Float16).passed);
  CHECK_FALSE(compare(golden, actual).passed);
  // An all-zero golden against a nonzero actual fails (msaccucmp's distance would say 0).
  const auto zero = compare_network(doubles({2}, {0, 0}), doubles({2}, {0, 0.5}), DType::Float16);
  CHECK_FALSE(zero.passed);
  CHECK(diagnosed(zero, "golden is all zero"));
  CHECK(compare_network(doubles({2}, {0, 0}), doubles({2}, {0, 0}), DType::Float16).passed);
}
