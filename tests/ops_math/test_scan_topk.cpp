// CumSum (exclusive/reverse/axis input) and TopK (ties, smallest, axis), hand-computed.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Tensor axis(std::int64_t value) { return Tensor::scalar<std::int64_t>(value); }

TEST_CASE("CumSum inclusive, exclusive, reverse") {
  const Tensor x = Tensor::from_vector<float>({5}, {1, 2, 3, 4, 5});
  check_close(run_one("CumSum", 14, {x, axis(0)}), {5}, {1, 3, 6, 10, 15});
  check_close(run_one("CumSum", 14, {x, axis(0)}, attrs({{"exclusive", std::int64_t{1}}})), {5}, {0, 1, 3, 6, 10});
  check_close(run_one("CumSum", 14, {x, axis(0)}, attrs({{"reverse", std::int64_t{1}}})), {5}, {15, 14, 12, 9, 5});
  check_close(run_one("CumSum", 11, {x, axis(0)}, attrs({{"reverse", std::int64_t{1}}, {"exclusive", std::int64_t{1}}})),
              {5}, {14, 12, 9, 5, 0});
}

TEST_CASE("CumSum along axes of a matrix, integers, and a 1-element axis tensor") {
  const Tensor x = Tensor::from_vector<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(run_one("CumSum", 14, {x, axis(0)}).to_int64s() == std::vector<std::int64_t>{1, 2, 3, 5, 7, 9});
  CHECK(run_one("CumSum", 14, {x, Tensor::from_vector<std::int32_t>({1}, {-1})}).to_int64s() ==
        std::vector<std::int64_t>{1, 3, 6, 4, 9, 15});
  CHECK(thrown_code([&] { run_one("CumSum", 14, {x, axis(2)}); }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] { run_one("CumSum", 14, {x, Tensor::from_vector<std::int64_t>({2}, {0, 1})}); }) ==
        ErrorCode::InvalidOperator);
}

Tensor k(std::int64_t value) { return Tensor::from_vector<std::int64_t>({1}, {value}); }

TEST_CASE("TopK keeps the lower index first among equal values") {
  const Tensor x = Tensor::from_vector<float>({5}, {3, 1, 3, 2, 3});
  auto out = run_op("TopK", 11, {x, k(2)}, {}, 2);
  check_close(out[0], {2}, {3, 3});
  CHECK(out[1].dtype() == DType::Int64);
  CHECK(out[1].to_int64s() == std::vector<std::int64_t>{0, 2});
  out = run_op("TopK", 11, {x, k(4)}, attrs({{"largest", std::int64_t{0}}}), 2);
  check_close(out[0], {4}, {1, 2, 3, 3});
  CHECK(out[1].to_int64s() == std::vector<std::int64_t>{1, 3, 0, 2});
}

TEST_CASE("TopK along a non-last axis, and K errors") {
  const Tensor x = Tensor::from_vector<std::int64_t>({3, 2}, {5, 1, 7, 1, 6, 9});
  const auto out = run_op("TopK", 11, {x, k(2)}, attrs({{"axis", std::int64_t{0}}}), 2);
  CHECK(out[0].shape() == Shape{2, 2});
  CHECK(out[0].to_int64s() == std::vector<std::int64_t>{7, 9, 6, 1});
  CHECK(out[1].to_int64s() == std::vector<std::int64_t>{1, 2, 2, 0});
  CHECK(thrown_code([&] { run_op("TopK", 11, {x, k(4)}, attrs({{"axis", std::int64_t{0}}}), 2); }) ==
        ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] { run_op("TopK", 11, {x, k(-1)}, {}, 2); }) == ErrorCode::InvalidOperator);
}

TEST_CASE("TopK inference uses a known K and costs on the scalar unit") {
  const Tensor three = k(3);
  const auto out = infer_op("TopK", 11,
                            {ValueInfo{"", DType::Float32, std::vector<Dim>{Dim::symbolic("n"), 10}},
                             ValueInfo{"", DType::Int64, std::vector<Dim>{1}}},
                            {}, 2, {nullptr, &three});
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("n"), 3});
  CHECK(out[1].dtype == DType::Int64);
  const auto unknown = infer_op("TopK", 11,
                                {ValueInfo{"", DType::Float32, std::vector<Dim>{4, 10}},
                                 ValueInfo{"", DType::Int64, std::vector<Dim>{1}}},
                                {}, 2);
  CHECK_FALSE((*unknown[0].shape)[1].is_static());
  const CostFacts facts = cost_op("TopK", 11,
                                  {ValueInfo::from_shape("x", DType::Float32, {4, 8}),
                                   ValueInfo::from_shape("k", DType::Int64, {1})},
                                  {ValueInfo::from_shape("v", DType::Float32, {4, 3}),
                                   ValueInfo::from_shape("i", DType::Int64, {4, 3})});
  CHECK(facts.unit == ComputeUnit::Scalar);
  CHECK(facts.flops == doctest::Approx(32 * 3));  // log2(8) comparisons per element
}

}  // namespace
}  // namespace asc::test
