// Integer and mixed-type arithmetic: Div truncation, Mod sign rules, Pow's mixed dtypes,
// wrapping, and the variadic Min/Max/Sum/Mean.
#include <cmath>
#include <cstdint>
#include <limits>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {

TEST_CASE("integer Div truncates toward zero") {
  const Tensor out = OpCall{"Div"}.run_one(
      {tensor<std::int32_t>({4}, {7, -7, 7, -7}), tensor<std::int32_t>({4}, {2, 2, -2, -2})});
  check_ints(out, DType::Int32, {4}, {3, -3, -3, 3});
  // as ONNX's test_div_uint8
  check_ints(
      OpCall{"Div"}.run_one({tensor<std::uint8_t>({3}, {16, 6, 0}), tensor<std::uint8_t>({3}, {11, 5, 23})}),
      DType::UInt8, {3}, {1, 1, 0});
  // INT32_MIN / -1 overflows: wraps instead of trapping
  const std::int32_t lowest = std::numeric_limits<std::int32_t>::lowest();
  check_ints(OpCall{"Div"}.run_one({tensor<std::int32_t>({1}, {lowest}), tensor<std::int32_t>({1}, {-1})}),
             DType::Int32, {1}, {lowest});
}

TEST_CASE("integer division by zero is an error, float division gives infinities") {
  CHECK(thrown_code([] {
          OpCall{"Div"}.run_one({tensor<std::int64_t>({2}, {1, 2}), tensor<std::int64_t>({2}, {1, 0})});
        }) == ErrorCode::InvalidOperator);
  const double inf = std::numeric_limits<double>::infinity();
  check_values(OpCall{"Div"}.run_one({floats({3}, {1, -1, 0}), floats({3}, {0, 0, 0})}), DType::Float32, {3},
               {inf, -inf, std::nan("")});
}

TEST_CASE("integer Add/Sub/Mul wrap like numpy") {
  check_ints(
      OpCall{"Add"}.run_one({tensor<std::uint8_t>({2}, {200, 255}), tensor<std::uint8_t>({2}, {100, 1})}),
      DType::UInt8, {2}, {44, 0});
  check_ints(OpCall{"Sub"}.run_one({tensor<std::uint8_t>({1}, {1}), tensor<std::uint8_t>({1}, {2})}),
             DType::UInt8, {1}, {255});
  check_ints(OpCall{"Mul"}.run_one({tensor<std::int8_t>({1}, {100}), tensor<std::int8_t>({1}, {3})}),
             DType::Int8, {1}, {44});
  check_ints(OpCall{"Add"}.run_one({tensor<std::int32_t>({1}, {std::numeric_limits<std::int32_t>::max()}),
                                    tensor<std::int32_t>({1}, {1})}),
             DType::Int32, {1}, {std::numeric_limits<std::int32_t>::lowest()});
  CHECK(thrown_code([] {
          OpCall{"Add"}.run_one({bools({1}, {true}), bools({1}, {true})});
        }) == ErrorCode::OperatorDtypeUnsupported);
}

TEST_CASE("Mod: fmod=0 takes the divisor's sign, fmod=1 the dividend's") {
  const Tensor a = tensor<std::int32_t>({6}, {-4, 7, 5, 4, -7, 8});
  const Tensor b = tensor<std::int32_t>({6}, {2, -3, 8, -2, 3, 5});
  check_ints(OpCall{"Mod"}.run_one({a, b}), DType::Int32, {6}, {0, -2, 5, 0, 2, 3});
  check_ints(OpCall{"Mod"}.attr("fmod", std::int64_t{1}).run_one({a, b}), DType::Int32, {6},
             {0, 1, 5, 0, -1, 3});
  check_ints(
      OpCall{"Mod"}.run_one({tensor<std::int8_t>({2}, {-128, -128}), tensor<std::int8_t>({2}, {-1, 3})}),
      DType::Int8, {2}, {0, 1});
  check_ints(
      OpCall{"Mod"}.run_one({tensor<std::uint16_t>({2}, {7, 65535}), tensor<std::uint16_t>({2}, {3, 10})}),
      DType::UInt16, {2}, {1, 5});
  // broadcast divisor
  check_ints(
      OpCall{"Mod"}.run_one({tensor<std::int64_t>({2, 2}, {-5, 5, -6, 6}), tensor<std::int64_t>({1}, {4})}),
      DType::Int64, {2, 2}, {3, 1, 2, 2});
}

TEST_CASE("Mod on floats requires fmod=1; zero integer divisor is an error") {
  check_values(OpCall{"Mod"}
                   .attr("fmod", std::int64_t{1})
                   .run_one({floats({3}, {-4.5f, 4.5f, 7.0f}), floats({3}, {2, -2, 2.5f})}),
               DType::Float32, {3}, {-0.5, 0.5, 2.0});
  CHECK(thrown_code([] {
          OpCall{"Mod"}.run_one({floats({1}, {1}), floats({1}, {2})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] {
          OpCall{"Mod"}.run_one({tensor<std::int32_t>({1}, {1}), tensor<std::int32_t>({1}, {0})});
        }) == ErrorCode::InvalidOperator);
}

TEST_CASE("Pow with same and mixed base/exponent dtypes") {
  check_values(OpCall{"Pow"}.run_one({floats({3}, {2, 3, 4}), floats({3}, {3, 0.5f, -1})}), DType::Float32,
               {3}, {8, std::sqrt(3.0), 0.25});
  check_values(OpCall{"Pow"}.run_one({floats({3}, {1, 2, 3}), floats({}, {2})}), DType::Float32, {3},
               {1, 4, 9});
  // integer base, float exponent: the result keeps the base's dtype, truncated
  check_ints(OpCall{"Pow"}.run_one({tensor<std::int32_t>({3}, {2, 3, 2}), floats({3}, {5, 0.5f, 10})}),
             DType::Int32, {3}, {32, 1, 1024});
  // float base, integer exponent
  check_values(OpCall{"Pow"}.run_one({floats({2}, {2, 0.5f}), tensor<std::int64_t>({2}, {3, -1})}),
               DType::Float32, {2}, {8, 2});
  check_values(OpCall{"Pow"}.run_one({floats({1}, {2}), tensor<std::uint64_t>({1}, {10})}), DType::Float32,
               {1}, {1024});
  // integer ** integer is exact (and wraps, like numpy)
  check_ints(
      OpCall{"Pow"}.run_one({tensor<std::int64_t>({3}, {3, -2, 3}), tensor<std::int64_t>({3}, {4, 3, 41})}),
      DType::Int64, {3}, {81, -8, -420491770248316829});
  check_values(OpCall{"Pow"}.run_one({tensor<double>({1}, {-8}), tensor<double>({1}, {1.0 / 3.0})}),
               DType::Float64, {1}, {std::nan("")});
}

TEST_CASE("variadic Min/Max/Sum/Mean broadcast every input") {
  const Tensor a = floats({2}, {1, 5});
  const Tensor b = floats({1}, {3});
  const Tensor c = floats({2, 1}, {0, 10});
  check_values(OpCall{"Max"}.run_one({a, b, c}), DType::Float32, {2, 2}, {3, 5, 10, 10});
  check_values(OpCall{"Min"}.run_one({a, b, c}), DType::Float32, {2, 2}, {0, 0, 1, 3});
  check_values(OpCall{"Sum"}.run_one({a, b, c}), DType::Float32, {2, 2}, {4, 8, 14, 18});
  check_values(OpCall{"Mean"}.run_one({a, b, c}), DType::Float32, {2, 2}, {4.0 / 3, 8.0 / 3, 14.0 / 3, 6});
  check_values(OpCall{"Min"}.run_one({a}), DType::Float32, {2}, {1, 5});
  check_values(OpCall{"Mean"}.run_one({a}), DType::Float32, {2}, {1, 5});
  check_ints(
      OpCall{"Max"}.run_one({tensor<std::int8_t>({3}, {-5, 0, 7}), tensor<std::int8_t>({3}, {-6, 1, 7})}),
      DType::Int8, {3}, {-5, 1, 7});
  check_ints(OpCall{"Min"}.run_one({tensor<std::uint64_t>({2}, {1, 5}), tensor<std::uint64_t>({2}, {3, 2})}),
             DType::UInt64, {2}, {1, 2});
}

TEST_CASE("Min/Max propagate NaN") {
  const double nan = std::nan("");
  check_values(OpCall{"Max"}.run_one({floats({2}, {NAN, 1}), floats({2}, {0, NAN})}), DType::Float32, {2},
               {nan, nan});
  check_values(OpCall{"Min"}.run_one({floats({2}, {NAN, 1}), floats({2}, {0, 2})}), DType::Float32, {2},
               {nan, 1});
}

TEST_CASE("float16 Sum accumulates in float and rounds once") {
  // 2048 + 1 + 1 = 2050 exactly; rounding after each addition would stay at 2048 (ties to even).
  const auto h = [](float v) { return tensor<float16>({1}, {float16(v)}); };
  check_values(OpCall{"Sum"}.run_one({h(2048), h(1), h(1)}), DType::Float16, {1}, {2050});
  check_values(OpCall{"Mean"}.run_one({h(2048), h(1), h(1)}), DType::Float16, {1},
               {683.5});  // 2050/3 = 683.33 -> f16 683.5
  CHECK(thrown_code([] {
          OpCall{"Sum"}.run_one({tensor<std::int32_t>({1}, {1}), tensor<std::int32_t>({1}, {1})});
        }) == ErrorCode::OperatorDtypeUnsupported);
  CHECK(thrown_code([] {
          OpCall{"Sum"}.run_one({floats({1}, {1}), tensor<double>({1}, {1})});
        }) == ErrorCode::InvalidOperator);
}

}  // namespace asc::test
