// DFT against transforms worked by hand: X[k] = sum_t x[t] exp(-2 pi i k t / N).
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

using namespace asc;
using namespace asc::test;

namespace {

Tensor real_signal(const std::vector<float>& values) {
  return Tensor::from_vector<float>({1, static_cast<std::int64_t>(values.size()), 1}, values);
}

}  // namespace

TEST_CASE("DFT of an impulse is flat and of a constant is an impulse") {
  check_close(run_one("DFT", 17, {real_signal({1, 0, 0, 0})}), {1, 4, 2}, {1, 0, 1, 0, 1, 0, 1, 0});
  check_close(run_one("DFT", 17, {real_signal({1, 1, 1, 1})}), {1, 4, 2}, {4, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("DFT onesided keeps floor(n/2)+1 bins") {
  check_close(run_one("DFT", 17, {real_signal({1, 1, 1, 1})}, attrs({{"onesided", std::int64_t{1}}})), {1, 3, 2},
              {4, 0, 0, 0, 0, 0});
}

TEST_CASE("DFT of a shifted impulse and its inverse") {
  // x = [0, 1, 0, 0]: X[k] = exp(-i pi k / 2) = 1, -i, -1, i.
  const Tensor spectrum = run_one("DFT", 17, {real_signal({0, 1, 0, 0})});
  check_close(spectrum, {1, 4, 2}, {1, 0, 0, -1, -1, 0, 0, 1});
  const Tensor back = run_one("DFT", 17, {spectrum}, attrs({{"inverse", std::int64_t{1}}}));
  check_close(back, {1, 4, 2}, {0, 0, 1, 0, 0, 0, 0, 0});
}

TEST_CASE("DFT dft_length zero-pads and truncates") {
  // [1, 1] padded to 4: X[k] = 1 + exp(-i pi k / 2) = 2, 1-i, 0, 1+i.
  check_close(run_one("DFT", 17, {real_signal({1, 1}), Tensor::scalar<std::int64_t>(4)}), {1, 4, 2},
              {2, 0, 1, -1, 0, 0, 1, 1});
  // [1, 2, 3, 4] truncated to 2: [3, -1].
  check_close(run_one("DFT", 17, {real_signal({1, 2, 3, 4}), Tensor::scalar<std::int32_t>(2)}), {1, 2, 2},
              {3, 0, -1, 0});
}

TEST_CASE("DFT along axis 2 transforms each row, float64 stays float64") {
  const Tensor x = Tensor::from_vector<double>({1, 2, 2, 1}, {1, 2, 3, 4});
  const Tensor y = run_one("DFT", 17, {x}, attrs({{"axis", std::int64_t{2}}}));
  CHECK(y.dtype() == DType::Float64);
  check_close(y, {1, 2, 2, 2}, {3, 0, -1, 0, 7, 0, -1, 0});
}

TEST_CASE("DFT inference, cost and errors") {
  const ValueInfo x = ValueInfo::from_shape("x", DType::Float32, {1, 4, 1});
  const std::vector<ValueInfo> onesided = infer_op("DFT", 17, {x}, attrs({{"onesided", std::int64_t{1}}}));
  CHECK(onesided[0].dtype == DType::Float32);
  CHECK(onesided[0].static_shape() == Shape{1, 3, 2});
  const ValueInfo length = ValueInfo::from_shape("n", DType::Int64, {});
  const Tensor eight = Tensor::scalar<std::int64_t>(8);
  CHECK(infer_op("DFT", 17, {x, length}, {}, 1, {nullptr, &eight})[0].static_shape() == Shape{1, 8, 2});
  const std::vector<ValueInfo> unknown = infer_op("DFT", 17, {x, length});
  REQUIRE(unknown[0].shape);
  CHECK_FALSE((*unknown[0].shape)[1].is_static());
  CHECK((*unknown[0].shape)[2].value == 2);

  const CostFacts cost = cost_op("DFT", 17, {x}, {ValueInfo::from_shape("y", DType::Float32, {1, 4, 2})});
  CHECK(cost.unit == ComputeUnit::Vector);
  CHECK(cost.flops == doctest::Approx(8.0 * 4 * 4));

  CHECK(thrown_code([&] { infer_op("DFT", 17, {x}, attrs({{"axis", std::int64_t{2}}})); }) == ErrorCode::InvalidOperator);
  const Tensor three_parts = Tensor::from_vector<float>({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(thrown_code([&] { run_one("DFT", 17, {three_parts}); }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] { run_one("DFT", 17, {real_signal({1, 2}), Tensor::scalar<std::int64_t>(0)}); }) ==
        ErrorCode::InvalidOperator);
  const Tensor integers = Tensor::from_vector<std::int32_t>({1, 2, 1}, {1, 2});
  CHECK(thrown_code([&] { run_one("DFT", 17, {integers}); }) == ErrorCode::OperatorDtypeUnsupported);
}
