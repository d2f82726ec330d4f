// Reduce* operators and ArgMax/ArgMin: hand-computed sums over x = arange(24) reshaped [2,3,4]
// (x[i][j][k] = 12i + 4j + k), opset 11 attribute axes against opset 13 input axes.
#include <cmath>
#include <numeric>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Tensor arange24() {
  std::vector<float> values(24);
  std::iota(values.begin(), values.end(), 0.0f);
  return Tensor::from_vector<float>({2, 3, 4}, values);
}

Tensor axes(std::vector<std::int64_t> values) {
  const auto count = static_cast<std::int64_t>(values.size());
  return Tensor::from_vector<std::int64_t>({count}, values);
}

TEST_CASE("ReduceSum: opset 11 axes attribute and opset 13 axes input agree") {
  // Sum over j: 36i + 12 + 3k.
  const std::vector<double> expected{12, 15, 18, 21, 48, 51, 54, 57};
  check_close(run_one("ReduceSum", 11, {arange24()}, attrs({{"axes", std::vector<std::int64_t>{1}}})), {2, 1, 4},
              expected);
  check_close(run_one("ReduceSum", 13, {arange24(), axes({1})}), {2, 1, 4}, expected);
  check_close(run_one("ReduceSum", 13, {arange24(), axes({-2})}, attrs({{"keepdims", std::int64_t{0}}})), {2, 4},
              expected);
}

TEST_CASE("ReduceSum: negative axes without keepdims") {
  // Sum over k: 4 * (12i + 4j) + 6.
  check_close(run_one("ReduceSum", 11, {arange24()},
                      attrs({{"axes", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t{0}}})),
              {2, 3}, {6, 22, 38, 54, 70, 86});
}

TEST_CASE("ReduceSum: empty axes reduce everything unless noop_with_empty_axes") {
  check_close(run_one("ReduceSum", 13, {arange24()}), {1, 1, 1}, {276});
  check_close(run_one("ReduceSum", 13, {arange24(), axes({})}), {1, 1, 1}, {276});
  check_close(run_one("ReduceSum", 11, {arange24()}, attrs({{"keepdims", std::int64_t{0}}})), {}, {276});
  const Tensor same = run_one("ReduceSum", 13, {arange24(), axes({})}, attrs({{"noop_with_empty_axes", std::int64_t{1}}}));
  check_close(same, {2, 3, 4}, arange24().to_doubles());
  // Without the axes input noop_with_empty_axes also leaves the input as is.
  check_close(run_one("ReduceSum", 13, {arange24(), Tensor()}, attrs({{"noop_with_empty_axes", std::int64_t{1}}})),
              {2, 3, 4}, arange24().to_doubles());
}

TEST_CASE("ReduceMean over two axes, and integer inputs") {
  // Mean over i and k: 6 + 4j + 1.5.
  check_close(run_one("ReduceMean", 13, {arange24()}, attrs({{"axes", std::vector<std::int64_t>{0, 2}}})), {1, 3, 1},
              {7.5, 11.5, 15.5});
  const Tensor ints = Tensor::from_vector<std::int32_t>({2, 2}, {1, 2, 4, 7});
  const Tensor mean = run_one("ReduceMean", 13, {ints}, attrs({{"axes", std::vector<std::int64_t>{1}}}));
  CHECK(mean.dtype() == DType::Int32);
  CHECK(mean.to_int64s() == std::vector<std::int64_t>{1, 5});  // 1.5 and 5.5 truncated
  const Tensor sum = run_one("ReduceSum", 13, {ints.cast(DType::Int64), axes({0})});
  CHECK(sum.to_int64s() == std::vector<std::int64_t>{5, 9});
}

TEST_CASE("ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceSumSquare") {
  const Tensor x = Tensor::from_vector<float>({2, 3}, {-3, 1, 2, 0.5f, -4, 2});
  const Attributes rows = attrs({{"axes", std::vector<std::int64_t>{1}}, {"keepdims", std::int64_t{0}}});
  check_close(run_one("ReduceMax", 13, {x}, rows), {2}, {2, 2});
  check_close(run_one("ReduceMin", 13, {x}, rows), {2}, {-3, -4});
  check_close(run_one("ReduceProd", 13, {x}, rows), {2}, {-6, -4});
  check_close(run_one("ReduceL1", 13, {x}, rows), {2}, {6, 6.5});
  check_close(run_one("ReduceL2", 13, {x}, rows), {2}, {std::sqrt(14.0), std::sqrt(20.25)});
  check_close(run_one("ReduceSumSquare", 13, {x}, rows), {2}, {14, 20.25});
  const Tensor ints = Tensor::from_vector<std::int8_t>({3}, {-5, 7, 3});
  CHECK(run_one("ReduceMax", 13, {ints}).to_int64s() == std::vector<std::int64_t>{7});
  CHECK(run_one("ReduceMin", 13, {ints}).to_int64s() == std::vector<std::int64_t>{-5});
}

TEST_CASE("ReduceLogSum and ReduceLogSumExp (stable for large values)") {
  const Tensor x = Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4});
  check_close(run_one("ReduceLogSum", 13, {x}), {1, 1}, {std::log(10.0)});
  check_close(run_one("ReduceLogSumExp", 13, {x}, attrs({{"axes", std::vector<std::int64_t>{0}}})), {1, 2},
              {std::log(std::exp(1.0) + std::exp(3.0)), std::log(std::exp(2.0) + std::exp(4.0))});
  const Tensor large = Tensor::from_vector<float>({2}, {1000, 1000});
  check_close(run_one("ReduceLogSumExp", 13, {large}), {1}, {1000 + std::log(2.0)});
}

TEST_CASE("Reduce inference and invalid axes") {
  const ValueInfo x{"", DType::Float32, std::vector<Dim>{Dim::symbolic("n"), 3, 4}};
  auto out = infer_op("ReduceMean", 13, {x}, attrs({{"axes", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t{0}}}));
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("n"), 3});
  const Tensor known_axes = axes({0});
  out = infer_op("ReduceSum", 13, {x, ValueInfo{"", DType::Int64, std::vector<Dim>{1}}}, {}, 1, {nullptr, &known_axes});
  CHECK(*out[0].shape == std::vector<Dim>{1, 3, 4});
  // Axes only known at run time: keepdims keeps the rank.
  out = infer_op("ReduceSum", 13, {x, ValueInfo{"", DType::Int64, std::vector<Dim>{1}}});
  REQUIRE(out[0].shape.has_value());
  CHECK(out[0].shape->size() == 3);
  CHECK(thrown_code([] { run_one("ReduceSum", 13, {arange24(), axes({3})}); }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] { run_one("ReduceMax", 11, {arange24()}, attrs({{"axes", std::vector<std::int64_t>{-4}}})); }) ==
        ErrorCode::InvalidOperator);
}

TEST_CASE("Reduction cost scales with the input") {
  const CostFacts facts = cost_op("ReduceSum", 13, {ValueInfo::from_shape("x", DType::Float32, {2, 3, 4})},
                                  {ValueInfo::from_shape("y", DType::Float32, {1, 1, 1})});
  CHECK(facts.flops == doctest::Approx(24));
  CHECK(facts.unit == ComputeUnit::Vector);
  CHECK(facts.bytes_read == 96);
  CHECK(facts.bytes_written == 4);
}

TEST_CASE("ArgMax and ArgMin with select_last_index and keepdims") {
  const Tensor x = Tensor::from_vector<float>({2, 4}, {1, 3, 3, 0, 5, 5, 2, 5});
  const Attributes first = attrs({{"axis", std::int64_t{1}}});
  const Attributes last = attrs({{"axis", std::int64_t{-1}}, {"select_last_index", std::int64_t{1}},
                                 {"keepdims", std::int64_t{0}}});
  Tensor y = run_one("ArgMax", 13, {x}, first);
  CHECK(y.dtype() == DType::Int64);
  CHECK(y.shape() == Shape{2, 1});
  CHECK(y.to_int64s() == std::vector<std::int64_t>{1, 0});
  y = run_one("ArgMax", 13, {x}, last);
  CHECK(y.shape() == Shape{2});
  CHECK(y.to_int64s() == std::vector<std::int64_t>{2, 3});
  CHECK(run_one("ArgMin", 13, {x}, first).to_int64s() == std::vector<std::int64_t>{3, 2});
  // Default axis 0.
  CHECK(run_one("ArgMin", 11, {x}).to_int64s() == std::vector<std::int64_t>{0, 0, 1, 0});
  CHECK(run_one("ArgMax", 12, {x}, attrs({{"select_last_index", std::int64_t{1}}})).to_int64s() ==
        std::vector<std::int64_t>{1, 1, 0, 1});
}

}  // namespace
}  // namespace asc::test
