// vector_exp and vector_erf against the double functions of the C library, over float bit
// patterns spread across the whole range, and at their special values.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <asc/sdk/vector_math.hpp>

namespace {

// |got - exact| in units of the last place of the float nearest `exact`.
double ulps(float got, double exact) {
  const float nearest = static_cast<float>(exact);
  const double ulp = std::nextafter(std::fabs(nearest), std::numeric_limits<float>::infinity()) - std::fabs(nearest);
  return std::fabs(static_cast<double>(got) - exact) / ulp;
}

// About four million floats, every sign and exponent, no NaN.
std::vector<float> spread_floats() {
  std::vector<float> values;
  for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += 1021) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (!std::isnan(x)) values.push_back(x);
  }
  return values;
}

// The functions as kernels use them: in a vectorised loop, in the clone this CPU picks.
ASC_VECTOR_CLONES void exp_all(const float* x, float* y, std::size_t count) {
#pragma omp simd
  for (std::size_t i = 0; i < count; ++i) y[i] = asc::vector_exp(x[i]);
}
ASC_VECTOR_CLONES void erf_all(const float* x, float* y, std::size_t count) {
#pragma omp simd
  for (std::size_t i = 0; i < count; ++i) y[i] = asc::vector_erf(x[i]);
}

// Calls `check(x, f(x))` for every spread float, f computed by `all`.
template <class All, class Check>
void for_spread_floats(All all, Check check) {
  const std::vector<float> x = spread_floats();
  std::vector<float> y(x.size());
  all(x.data(), y.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) check(x[i], y[i]);
}

}  // namespace

TEST_CASE("vector_exp is within 2 ulp of exp wherever the result is a normal float") {
  double worst = 0;
  float worst_at = 0;
  for_spread_floats(exp_all, [&](float x, float got) {
    const double exact = std::exp(static_cast<double>(x));
    if (x < -87.3365f) {
      REQUIRE(got == 0.0f);
    } else if (exact > std::numeric_limits<float>::max()) {
      REQUIRE(std::isinf(got));
    } else {
      const double error = ulps(got, exact);
      if (error > worst) worst = error, worst_at = x;
    }
  });
  CAPTURE(worst_at);
  CHECK(worst <= 2.0);
  CHECK(asc::vector_exp(0.0f) == 1.0f);
  CHECK(asc::vector_exp(88.72f) == doctest::Approx(std::exp(static_cast<double>(88.72f))).epsilon(1e-6));
  CHECK(asc::vector_exp(-std::numeric_limits<float>::infinity()) == 0.0f);
  CHECK(std::isinf(asc::vector_exp(std::numeric_limits<float>::infinity())));
  CHECK(std::isnan(asc::vector_exp(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("vector_erf is within 3 ulp and 1.1e-7 of erf everywhere") {
  double worst_ulps = 0, worst_absolute = 0;
  float worst_at = 0;
  for_spread_floats(erf_all, [&](float x, float got) {
    const double exact = std::erf(static_cast<double>(x));
    const double error = ulps(got, exact);
    worst_absolute = std::max(worst_absolute, std::fabs(static_cast<double>(got) - exact));
    if (error > worst_ulps) worst_ulps = error, worst_at = x;
  });
  // Dense near the ends of the polynomial pieces (0.875 and 3.92), where a fit is weakest.
  for (float x = 0.8f; x < 4.0f; x = std::nextafter(x, 5.0f) + 1e-6f) {
    const double exact = std::erf(static_cast<double>(x));
    const double error = ulps(asc::vector_erf(x), exact);
    if (error > worst_ulps) worst_ulps = error, worst_at = x;
  }
  CAPTURE(worst_at);
  CHECK(worst_ulps <= 3.0);
  CHECK(worst_absolute <= 1.1e-7);
  CHECK(asc::vector_erf(0.0f) == 0.0f);
  CHECK(asc::vector_erf(std::numeric_limits<float>::infinity()) == 1.0f);
  CHECK(asc::vector_erf(-std::numeric_limits<float>::infinity()) == -1.0f);
  CHECK(std::isnan(asc::vector_erf(std::numeric_limits<float>::quiet_NaN())));
}
