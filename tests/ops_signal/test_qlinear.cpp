// QLinearMatMul and QLinearConv on tiny operands worked by hand: dequantize, multiply, divide by
// y_scale, round half to even, add y_zero_point, saturate.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

using namespace asc;
using namespace asc::test;

namespace {

// a = [[2,4],[6,8]] at scale 0.5, zero point 2 -> [[0,1],[2,3]];
// b = [[1,3],[5,7]] at scale 1, zero point 1  -> [[0,2],[4,6]]; a x b = [[4,6],[12,22]].
std::vector<Tensor> matmul_inputs(Tensor a_scale, float y_scale, Tensor y_zero_point) {
  return {Tensor::from_vector<std::uint8_t>({2, 2}, {2, 4, 6, 8}), std::move(a_scale), Tensor::scalar<std::uint8_t>(2),
          Tensor::from_vector<std::int8_t>({2, 2}, {1, 3, 5, 7}),  Tensor::scalar<float>(1), Tensor::scalar<std::int8_t>(1),
          Tensor::scalar<float>(y_scale),                          std::move(y_zero_point)};
}

std::vector<std::int64_t> values(const Tensor& t) { return t.to_int64s(); }

}  // namespace

TEST_CASE("QLinearMatMul per tensor, rounding half to even") {
  const Tensor y = run_one("QLinearMatMul", 13, matmul_inputs(Tensor::scalar<float>(0.5f), 2, Tensor::scalar<std::uint8_t>(10)));
  CHECK(y.dtype() == DType::UInt8);
  CHECK(y.shape() == Shape{2, 2});
  CHECK(values(y) == std::vector<std::int64_t>{12, 13, 16, 21});
  // /4: 1, 1.5, 3, 5.5 -> 1, 2, 3, 6.
  CHECK(values(run_one("QLinearMatMul", 13, matmul_inputs(Tensor::scalar<float>(0.5f), 4, Tensor::scalar<std::uint8_t>(10)))) ==
        std::vector<std::int64_t>{11, 12, 13, 16});
}

TEST_CASE("QLinearMatMul saturates into the output type") {
  CHECK(values(run_one("QLinearMatMul", 13, matmul_inputs(Tensor::scalar<float>(0.5f), 4, Tensor::scalar<std::uint8_t>(250)))) ==
        std::vector<std::int64_t>{251, 252, 253, 255});
  const Tensor y = run_one("QLinearMatMul", 13, matmul_inputs(Tensor::scalar<float>(0.5f), 1, Tensor::scalar<std::int8_t>(100)));
  CHECK(y.dtype() == DType::Int8);
  CHECK(values(y) == std::vector<std::int64_t>{104, 106, 112, 122});
  CHECK(values(run_one("QLinearMatMul", 13, matmul_inputs(Tensor::scalar<float>(0.5f), 1, Tensor::scalar<std::int8_t>(120)))) ==
        std::vector<std::int64_t>{124, 126, 127, 127});
}

TEST_CASE("QLinearMatMul per-row scale of a") {
  // Row 1 at scale 0.25: [1, 1.5] x b = [6, 11]; /4 -> 1.5, 2.75 -> 2, 3.
  const Tensor per_row = Tensor::from_vector<float>({2, 1}, {0.5f, 0.25f});
  CHECK(values(run_one("QLinearMatMul", 13, matmul_inputs(per_row, 4, Tensor::scalar<std::uint8_t>(10)))) ==
        std::vector<std::int64_t>{11, 12, 12, 13});
  const Tensor along_k = Tensor::from_vector<float>({2}, {0.5f, 0.25f});
  CHECK(thrown_code([&] { run_one("QLinearMatMul", 13, matmul_inputs(along_k, 4, Tensor::scalar<std::uint8_t>(10))); }) ==
        ErrorCode::InvalidOperator);
}

TEST_CASE("QLinearMatMul inference, cost and errors") {
  const ValueInfo a = ValueInfo::from_shape("a", DType::UInt8, {3, 2, 4});
  const ValueInfo b = ValueInfo::from_shape("b", DType::UInt8, {4, 5});
  const ValueInfo scale = ValueInfo::from_shape("s", DType::Float32, {});
  const ValueInfo zero_u8 = ValueInfo::from_shape("z", DType::UInt8, {});
  const ValueInfo zero_i8 = ValueInfo::from_shape("z", DType::Int8, {});
  const std::vector<ValueInfo> in{a, scale, zero_u8, b, scale, zero_u8, scale, zero_i8};
  const std::vector<ValueInfo> y = infer_op("QLinearMatMul", 13, in);
  CHECK(y[0].dtype == DType::Int8);
  CHECK(y[0].static_shape() == Shape{3, 2, 5});
  const CostFacts cost = cost_op("QLinearMatMul", 13, in, {ValueInfo::from_shape("y", DType::Int8, {3, 2, 5})});
  CHECK(cost.unit == ComputeUnit::Cube);
  CHECK(cost.flops == doctest::Approx(2.0 * 3 * 2 * 5 * 4));
  CHECK(cost.bytes_read == 24 + 20 + 3 * 4 + 3);

  std::vector<Tensor> mismatched_zero = matmul_inputs(Tensor::scalar<float>(0.5f), 1, Tensor::scalar<std::uint8_t>(0));
  mismatched_zero[2] = Tensor::scalar<std::int8_t>(2);
  CHECK(thrown_code([&] { run_one("QLinearMatMul", 13, mismatched_zero); }) == ErrorCode::InvalidOperator);
  std::vector<Tensor> float_operand = matmul_inputs(Tensor::scalar<float>(0.5f), 1, Tensor::scalar<std::uint8_t>(0));
  float_operand[0] = Tensor::from_vector<float>({2, 2}, {2, 4, 6, 8});
  CHECK(thrown_code([&] { run_one("QLinearMatMul", 13, float_operand); }) == ErrorCode::OperatorDtypeUnsupported);
}

namespace {

// x = 1..9 ([1,1,3,3]) at scale 1, zero point 1 -> 0..8; w = 2 everywhere at zero point 1.
std::vector<Tensor> conv_inputs(std::int64_t out_channels, Tensor w_scale, Tensor w_zero, std::uint8_t y_zero) {
  std::vector<std::uint8_t> x(9);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::uint8_t>(i + 1);
  return {Tensor::from_vector<std::uint8_t>({1, 1, 3, 3}, x),
          Tensor::scalar<float>(1),
          Tensor::scalar<std::uint8_t>(1),
          Tensor::from_vector<std::uint8_t>({out_channels, 1, 2, 2}, std::vector<std::uint8_t>(4 * out_channels, 2)),
          std::move(w_scale),
          std::move(w_zero),
          Tensor::scalar<float>(1),
          Tensor::scalar<std::uint8_t>(y_zero)};
}

}  // namespace

TEST_CASE("QLinearConv per tensor, with bias") {
  // Weights 1 * 0.5; 2x2 window sums of 0..8: 8, 12, 20, 24 -> 4, 6, 10, 12.
  std::vector<Tensor> in = conv_inputs(1, Tensor::scalar<float>(0.5f), Tensor::scalar<std::uint8_t>(1), 0);
  const Tensor y = run_one("QLinearConv", 13, in);
  CHECK(y.dtype() == DType::UInt8);
  CHECK(y.shape() == Shape{1, 1, 2, 2});
  CHECK(values(y) == std::vector<std::int64_t>{4, 6, 10, 12});
  // Bias 4 at scale x_scale * w_scale = 0.5 adds 2.
  in.push_back(Tensor::from_vector<std::int32_t>({1}, {4}));
  CHECK(values(run_one("QLinearConv", 13, in)) == std::vector<std::int64_t>{6, 8, 12, 14});
}

TEST_CASE("QLinearConv per output channel weights") {
  // Channel 1: zero point 0, scale 1 -> weights 2: sums 8, 12, 20, 24 -> 16, 24, 40, 48.
  const Tensor y = run_one("QLinearConv", 13,
                           conv_inputs(2, Tensor::from_vector<float>({2}, {0.5f, 1.0f}),
                                       Tensor::from_vector<std::uint8_t>({2}, {1, 0}), 0));
  CHECK(y.shape() == Shape{1, 2, 2, 2});
  CHECK(values(y) == std::vector<std::int64_t>{4, 6, 10, 12, 16, 24, 40, 48});
}

TEST_CASE("QLinearConv padding reads as the input zero point") {
  // With pads 1 the top-left window covers only x[0,0] (real 0): 0 + y_zero_point 10; padding
  // read as raw 0 would be real -1 and give 8.5 -> 8.
  const Tensor y = run_one("QLinearConv", 13,
                           conv_inputs(1, Tensor::scalar<float>(0.5f), Tensor::scalar<std::uint8_t>(1), 10),
                           attrs({{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}}));
  CHECK(y.shape() == Shape{1, 1, 4, 4});
  const std::vector<std::int64_t> v = values(y);
  CHECK(v[0] == 10);
  CHECK(v[5] == 14);  // window rows 0-1, cols 0-1: 8 * 0.5 + 10
}

TEST_CASE("QLinearConv inference, cost and errors") {
  const ValueInfo x = ValueInfo::from_shape("x", DType::UInt8, {1, 1, 3, 3});
  const ValueInfo w = ValueInfo::from_shape("w", DType::Int8, {2, 1, 2, 2});
  const ValueInfo scale = ValueInfo::from_shape("s", DType::Float32, {});
  const ValueInfo zero_u8 = ValueInfo::from_shape("z", DType::UInt8, {});
  const ValueInfo zero_i8 = ValueInfo::from_shape("z", DType::Int8, {});
  const std::vector<ValueInfo> in{x, scale, zero_u8, w, scale, zero_i8, scale, zero_i8};
  const std::vector<ValueInfo> y = infer_op("QLinearConv", 13, in);
  CHECK(y[0].dtype == DType::Int8);
  CHECK(y[0].static_shape() == Shape{1, 2, 2, 2});
  const CostFacts cost = cost_op("QLinearConv", 13, in, {ValueInfo::from_shape("y", DType::Int8, {1, 2, 2, 2})});
  CHECK(cost.unit == ComputeUnit::Cube);
  CHECK(cost.flops == doctest::Approx(2.0 * 8 * 4));
  CHECK(cost.bytes_read == 9 + 8 + 3 * 4 + 3);

  std::vector<Tensor> bad_bias = conv_inputs(1, Tensor::scalar<float>(0.5f), Tensor::scalar<std::uint8_t>(1), 0);
  bad_bias.push_back(Tensor::from_vector<std::int32_t>({2}, {4, 4}));
  CHECK(thrown_code([&] { run_one("QLinearConv", 13, bad_bias); }) == ErrorCode::InvalidOperator);
  const std::vector<Tensor> bad_scale =
      conv_inputs(2, Tensor::from_vector<float>({3}, {1, 1, 1}), Tensor::scalar<std::uint8_t>(1), 0);
  CHECK(thrown_code([&] { run_one("QLinearConv", 13, bad_scale); }) == ErrorCode::InvalidOperator);
}
