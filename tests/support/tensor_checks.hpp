// Building test tensors and value infos, deterministic random data, and comparing kernel results
// with expectations written out in the tests or computed in float64.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <asc/sdk/graph.hpp>
#include <asc/sdk/tensor.hpp>

namespace asc::test {

template <class T> Tensor tensor(Shape shape, std::vector<T> values) {
  return Tensor::from_vector<T>(std::move(shape), values);
}
inline Tensor floats(Shape shape, std::vector<float> values) { return tensor<float>(std::move(shape), std::move(values)); }
inline Tensor int64s(Shape shape, std::vector<std::int64_t> values) {
  return tensor<std::int64_t>(std::move(shape), std::move(values));
}
// A 1-D int64 tensor of `values`.
inline Tensor int64s(std::vector<std::int64_t> values) {
  const auto n = static_cast<std::int64_t>(values.size());
  return int64s({n}, std::move(values));
}
inline Tensor bools(Shape shape, std::vector<bool> values) {
  Tensor t(DType::Bool, std::move(shape));
  if (static_cast<std::size_t>(t.numel()) != values.size()) throw std::invalid_argument("bools: count does not match shape");
  for (std::size_t i = 0; i < values.size(); ++i) t.data<bool>()[i] = values[i];
  return t;
}
// 0, 1, 2, ... as float32 of `shape`.
inline Tensor iota_floats(const Shape& shape) {
  std::vector<float> values(static_cast<std::size_t>(num_elements(shape)));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  return floats(shape, values);
}

inline std::vector<float> random_floats(std::size_t count, std::uint32_t seed, float low = -1.0f, float high = 1.0f) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> values(count);
  for (float& v : values) v = distribution(generator);
  return values;
}
inline Tensor random_tensor(const Shape& shape, std::uint32_t seed, float low = -1.0f, float high = 1.0f) {
  return floats(shape, random_floats(static_cast<std::size_t>(num_elements(shape)), seed, low, high));
}

inline std::vector<double> as_doubles(const std::vector<float>& values) { return {values.begin(), values.end()}; }

inline std::vector<Dim> dims(std::initializer_list<Dim> values) { return values; }
// `shape` std::nullopt: rank unknown.
inline ValueInfo info(DType dtype, std::optional<std::vector<Dim>> shape) {
  ValueInfo value;
  value.dtype = dtype;
  value.shape = std::move(shape);
  return value;
}
inline ValueInfo info(DType dtype, std::initializer_list<Dim> shape) { return info(dtype, dims(shape)); }
inline ValueInfo static_info(DType dtype, const Shape& shape) { return ValueInfo::from_shape("", dtype, shape); }
// An omitted optional input.
inline ValueInfo absent() { return {}; }

// One CHECK per element: |actual - expected| <= atol + rtol * |expected| (NaN matches NaN,
// infinities must be equal).
inline void check_elements(const std::vector<double>& values, const std::vector<double>& expected, double rtol,
                           double atol) {
  REQUIRE(values.size() == expected.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO("element " << i << ": " << values[i] << " vs expected " << expected[i]);
    if (std::isnan(expected[i])) CHECK(std::isnan(values[i]));
    else if (std::isinf(expected[i])) CHECK(values[i] == expected[i]);
    else CHECK(std::abs(values[i] - expected[i]) <= atol + rtol * std::abs(expected[i]));
  }
}

// Same shape, and every element close (see check_elements).
inline void check_close(const Tensor& actual, const Shape& shape, const std::vector<double>& expected,
                        double rtol = 1e-5, double atol = 1e-6) {
  REQUIRE(actual.shape() == shape);
  check_elements(actual.to_doubles(), expected, rtol, atol);
}

// Same shape, and every element within atol + rtol * |expected|; for large outputs: reports at most
// five mismatching elements and counts as one CHECK.
inline void check_all_close(const Tensor& actual, const Shape& shape, const std::vector<double>& expected,
                            double rtol = 1e-5, double atol = 1e-5) {
  REQUIRE(actual.shape() == shape);
  const std::vector<double> values = actual.to_doubles();
  REQUIRE(values.size() == expected.size());
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::abs(values[i] - expected[i]) <= atol + rtol * std::abs(expected[i])) continue;
    if (++mismatches <= 5) FAIL_CHECK("element " << i << ": " << values[i] << " vs expected " << expected[i]);
  }
  CHECK(mismatches == 0);
}

// Defined, same dtype and shape, and every element close (see check_elements).
inline void check_values(const Tensor& actual, DType dtype, const Shape& shape, const std::vector<double>& expected,
                         double rtol = 1e-6, double atol = 1e-7) {
  REQUIRE(actual.defined());
  CHECK(actual.dtype() == dtype);
  REQUIRE(actual.shape() == shape);
  check_elements(actual.to_doubles(), expected, rtol, atol);
}
inline void check_floats(const Tensor& actual, const Shape& shape, const std::vector<double>& expected,
                         double rtol = 1e-6, double atol = 1e-6) {
  check_values(actual, DType::Float32, shape, expected, rtol, atol);
}

// Exact integer (or bool) comparison.
inline void check_ints(const Tensor& actual, DType dtype, const Shape& shape, const std::vector<std::int64_t>& expected) {
  REQUIRE(actual.defined());
  CHECK(actual.dtype() == dtype);
  REQUIRE(actual.shape() == shape);
  CHECK(actual.to_int64s() == expected);
}
inline void check_int64s(const Tensor& actual, const Shape& shape, const std::vector<std::int64_t>& expected) {
  check_ints(actual, DType::Int64, shape, expected);
}

}  // namespace asc::test
