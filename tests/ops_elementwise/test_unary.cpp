// Unary math and activations against float64 formulas written out here, integer edge cases,
// rounding, and dtype refusals.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

// Runs op on float32 `inputs` and compares with `reference` evaluated in double.
void check_against(const OpCall& op, const std::vector<float>& inputs,
                   const std::function<double(double)>& reference, double rtol = 1e-5, double atol = 1e-6) {
  INFO(op.op_type);
  std::vector<double> expected;
  for (float x : inputs) expected.push_back(reference(static_cast<double>(x)));
  const auto count = static_cast<std::int64_t>(inputs.size());
  check_values(op.run_one({floats({count}, inputs)}), DType::Float32, {count}, expected, rtol, atol);
}

const std::vector<float> kWide{-3.5f, -1.0f, -0.25f, 0.0f, 0.3f, 1.0f, 2.75f};
const std::vector<float> kUnit{-0.9f, -0.5f, 0.0f, 0.25f, 0.75f};
const std::vector<float> kPositive{0.01f, 0.5f, 1.0f, 3.0f, 100.0f};

}  // namespace

TEST_CASE("transcendental and root functions match float64 references") {
  check_against(OpCall{"Exp"}, kWide, [](double x) { return std::exp(x); });
  check_against(OpCall{"Log"}, kPositive, [](double x) { return std::log(x); });
  check_against(OpCall{"Sqrt"}, kPositive, [](double x) { return std::sqrt(x); });
  check_against(OpCall{"Reciprocal"}, kPositive, [](double x) { return 1.0 / x; });
  check_against(OpCall{"Erf"}, kWide, [](double x) { return std::erf(x); });
  check_against(OpCall{"Sin"}, kWide, [](double x) { return std::sin(x); });
  check_against(OpCall{"Cos"}, kWide, [](double x) { return std::cos(x); });
  check_against(OpCall{"Tan"}, kUnit, [](double x) { return std::tan(x); });
  check_against(OpCall{"Asin"}, kUnit, [](double x) { return std::asin(x); });
  check_against(OpCall{"Acos"}, kUnit, [](double x) { return std::acos(x); });
  check_against(OpCall{"Atan"}, kWide, [](double x) { return std::atan(x); });
  check_against(OpCall{"Sinh"}, kWide, [](double x) { return std::sinh(x); });
  check_against(OpCall{"Cosh"}, kWide, [](double x) { return std::cosh(x); });
  check_against(OpCall{"Asinh"}, kWide, [](double x) { return std::asinh(x); });
  check_against(OpCall{"Acosh"}, {1.0f, 1.5f, 10.0f}, [](double x) { return std::acosh(x); });
  check_against(OpCall{"Atanh"}, kUnit, [](double x) { return std::atanh(x); });
  check_against(OpCall{"Tanh"}, kWide, [](double x) { return std::tanh(x); });
}

TEST_CASE("Floor, Ceil and Round (halves to even)") {
  const Tensor x = floats({7}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f});
  check_values(OpCall{"Round"}.run_one({x}), DType::Float32, {7}, {0, 2, 2, -0.0, -2, 2, -3});
  check_values(OpCall{"Floor"}.run_one({x}), DType::Float32, {7}, {0, 1, 2, -1, -2, 2, -3});
  check_values(OpCall{"Ceil"}.run_one({x}), DType::Float32, {7}, {1, 2, 3, -0.0, -1, 3, -2});
}

TEST_CASE("Abs, Neg and Sign on floats and integers") {
  check_values(OpCall{"Abs"}.run_one({floats({3}, {-2.5f, 0, 3})}), DType::Float32, {3}, {2.5, 0, 3});
  // |INT8_MIN| does not fit: wraps to itself, as numpy does
  check_ints(OpCall{"Abs"}.run_one({tensor<std::int8_t>({3}, {-128, -5, 7})}), DType::Int8, {3},
             {-128, 5, 7});
  check_ints(OpCall{"Abs"}.run_one({tensor<std::uint32_t>({2}, {0, 4000000000u})}), DType::UInt32, {2},
             {0, 4000000000});
  check_ints(OpCall{"Neg"}.run_one({tensor<std::int64_t>({2}, {5, -7})}), DType::Int64, {2}, {-5, 7});
  check_values(OpCall{"Neg"}.run_one({floats({2}, {1.5f, -0.0f})}), DType::Float32, {2}, {-1.5, 0});
  check_values(OpCall{"Sign"}.run_one({floats({4}, {-2, 0, 3, NAN})}), DType::Float32, {4},
               {-1, 0, 1, std::nan("")});
  check_ints(OpCall{"Sign"}.run_one({tensor<std::int32_t>({3}, {-9, 0, 4})}), DType::Int32, {3}, {-1, 0, 1});
  check_ints(OpCall{"Sign"}.run_one({tensor<std::uint8_t>({2}, {0, 200})}), DType::UInt8, {2}, {0, 1});
}

TEST_CASE("unsupported element types give EE2002") {
  CHECK(thrown_code([] { OpCall{"Exp"}.run_one({tensor<std::int32_t>({1}, {1})}); }) ==
        ErrorCode::OperatorDtypeUnsupported);
  CHECK(thrown_code([] { OpCall{"Neg"}.run_one({tensor<std::uint8_t>({1}, {1})}); }) ==
        ErrorCode::OperatorDtypeUnsupported);
  CHECK(thrown_code([] { OpCall{"Relu"}.run_one({bools({1}, {true})}); }) ==
        ErrorCode::OperatorDtypeUnsupported);
  CHECK(thrown_code([] { OpCall{"Not"}.run_one({floats({1}, {1})}); }) ==
        ErrorCode::OperatorDtypeUnsupported);
}

TEST_CASE("half-precision inputs are computed in float and rounded once") {
  // exp(1) = 2.71828...; the nearest float16 is 2.71875 (spacing 2^-9 in [2,4))
  const Tensor out = OpCall{"Exp"}.run_one({tensor<float16>({1}, {float16(1.0f)})});
  check_values(out, DType::Float16, {1}, {2.71875}, 0, 0);
  const Tensor bf = OpCall{"Sqrt"}.run_one({tensor<bfloat16>({1}, {bfloat16(2.0f)})});
  check_values(bf, DType::BFloat16, {1}, {1.4140625}, 0, 0);  // sqrt(2)=1.41421 -> bf16 1.4140625
  check_values(OpCall{"Relu"}.run_one({tensor<double>({2}, {-1, 2})}), DType::Float64, {2}, {0, 2});
}

TEST_CASE("activations with default and explicit attributes") {
  check_against(OpCall{"Relu"}, kWide, [](double x) { return x > 0 ? x : 0; });
  check_ints(OpCall{"Relu"}.run_one({tensor<std::int32_t>({2}, {-3, 4})}), DType::Int32, {2}, {0, 4});
  check_against(OpCall{"LeakyRelu"}, kWide, [](double x) { return x > 0 ? x : 0.01 * x; });
  check_against(OpCall{"LeakyRelu"}.attr("alpha", 0.1f), kWide,
                [](double x) { return x > 0 ? x : 0.1f * x; });
  check_against(OpCall{"Elu"}, kWide, [](double x) { return x > 0 ? x : std::exp(x) - 1; });
  check_against(OpCall{"Elu"}.attr("alpha", 2.0f), kWide,
                [](double x) { return x > 0 ? x : 2 * (std::exp(x) - 1); });
  const double selu_alpha = 1.6732632423543772, selu_gamma = 1.0507009873554805;
  check_against(OpCall{"Selu"}, kWide, [&](double x) {
    return x > 0 ? selu_gamma * x : selu_gamma * (selu_alpha * std::exp(x) - selu_alpha);
  });
  check_against(OpCall{"Selu"}.attr("alpha", 2.0f).attr("gamma", 3.0f), kWide,
                [](double x) { return x > 0 ? 3 * x : 3 * (2 * std::exp(x) - 2); });
  check_against(OpCall{"Celu"}.attr("alpha", 2.0f), kWide,
                [](double x) { return std::max(0.0, x) + std::min(0.0, 2 * (std::exp(x / 2) - 1)); });
  check_against(OpCall{"Sigmoid"}, {-100.0f, -3.5f, 0.0f, 2.0f, 100.0f},
                [](double x) { return 1 / (1 + std::exp(-x)); });
  check_against(OpCall{"HardSigmoid"}, {-5.0f, -1.0f, 0.0f, 1.0f, 5.0f},
                [](double x) { return std::clamp(0.2 * x + 0.5, 0.0, 1.0); });
  check_against(OpCall{"HardSigmoid"}.attr("alpha", 0.5f).attr("beta", 0.6f), kWide,
                [](double x) { return std::clamp(0.5 * x + 0.6f, 0.0, 1.0); });
  check_against(OpCall{"HardSwish"}, {-4.0f, -3.0f, -1.0f, 0.0f, 1.0f, 3.0f, 4.0f},
                [](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); });
  check_against(OpCall{"Softplus"}, {-100.0f, -1.0f, 0.0f, 1.0f, 100.0f},
                [](double x) { return std::log(std::exp(x) + 1); });
  check_against(OpCall{"Softsign"}, kWide, [](double x) { return x / (1 + std::abs(x)); });
  check_against(OpCall{"ThresholdedRelu"}, kWide, [](double x) { return x > 1 ? x : 0; });
  check_against(OpCall{"ThresholdedRelu"}.attr("alpha", 2.0f), {1.0f, 2.0f, 3.0f},
                [](double x) { return x > 2 ? x : 0; });
}

TEST_CASE("Shrink soft and hard, including integers") {
  const Tensor x = floats({5}, {-2, -1, 0, 1, 2});
  check_values(OpCall{"Shrink"}.attr("lambd", 1.5f).attr("bias", 1.5f).run_one({x}), DType::Float32, {5},
               {-0.5, 0, 0, 0, 0.5});
  check_values(OpCall{"Shrink"}.attr("lambd", 1.5f).run_one({x}), DType::Float32, {5}, {-2, 0, 0, 0, 2});
  check_ints(OpCall{"Shrink"}
                 .attr("lambd", 1.0f)
                 .attr("bias", 1.0f)
                 .run_one({tensor<std::int32_t>({3}, {-5, 1, 5})}),
             DType::Int32, {3}, {-4, 0, 4});
}

TEST_CASE("IsNaN and IsInf with detect_positive/detect_negative") {
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor x = floats({5}, {-inf, -1, 0, inf, NAN});
  check_ints(OpCall{"IsNaN"}.run_one({x}), DType::Bool, {5}, {0, 0, 0, 0, 1});
  check_ints(OpCall{"IsInf"}.run_one({x}), DType::Bool, {5}, {1, 0, 0, 1, 0});
  check_ints(OpCall{"IsInf"}.attr("detect_positive", std::int64_t{0}).run_one({x}), DType::Bool, {5},
             {1, 0, 0, 0, 0});
  check_ints(OpCall{"IsInf"}.attr("detect_negative", std::int64_t{0}).run_one({x}), DType::Bool, {5},
             {0, 0, 0, 1, 0});
  check_ints(OpCall{"IsNaN"}.run_one({tensor<double>({2}, {std::nan(""), 1})}), DType::Bool, {2}, {1, 0});
}

}  // namespace asc::test
