// QuantizeLinear, DequantizeLinear (per tensor and per axis) and DynamicQuantizeLinear on the
// examples of ONNX's operator documentation and hand-worked per-axis cases.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Tensor uint8s(Shape shape, std::vector<std::uint8_t> values) { return Tensor::from_vector<std::uint8_t>(std::move(shape), values); }

TEST_CASE("QuantizeLinear rounds half to even and saturates to the zero point's type") {
  const Tensor x = floats({6}, {0, 2, 3, 1000, -254, -1000});
  const Tensor u8 = OpCall{"QuantizeLinear", 13}.run_one({x, Tensor::scalar<float>(2), Tensor::scalar<std::uint8_t>(128)});
  check_values(u8, DType::UInt8, {6}, {128, 129, 130, 255, 1, 0});
  const Tensor i8 = OpCall{"QuantizeLinear", 13}.run_one({x, Tensor::scalar<float>(2), Tensor::scalar<std::int8_t>(-1)});
  check_values(i8, DType::Int8, {6}, {-1, 0, 1, 127, -128, -128});
  // No zero point: uint8 with zero point 0. 0.5 -> 0 and 2.5 -> 2 (half to even).
  const Tensor plain = OpCall{"QuantizeLinear", 11}.run_one({floats({4}, {-1, 0.5f, 2.5f, 300}), Tensor::scalar<float>(1)});
  check_values(plain, DType::UInt8, {4}, {0, 0, 2, 255});
}

TEST_CASE("QuantizeLinear/DequantizeLinear per axis from opset 13 (default axis 1)") {
  const Tensor scales = floats({3}, {1, 2, 4});
  const Tensor zero_points = uint8s({3}, {0, 1, 2});
  const Tensor q = OpCall{"QuantizeLinear", 13}.run_one({floats({2, 3}, {4, 4, 4, 8, 8, 8}), scales, zero_points});
  check_values(q, DType::UInt8, {2, 3}, {4, 3, 3, 8, 5, 4});
  check_floats(OpCall{"DequantizeLinear", 13}.run_one({q, scales, zero_points}), {2, 3}, {4, 4, 4, 8, 8, 8});
  const auto per_axis_at_11 = thrown_error([&] {
    OpCall{"QuantizeLinear", 11}.run_one({floats({2, 3}, {4, 4, 4, 8, 8, 8}), scales, zero_points});
  });
  REQUIRE(per_axis_at_11);
  CHECK(per_axis_at_11->code() == ErrorCode::InvalidOperator);
  const auto wrong_length = thrown_error([&] {
    OpCall{"QuantizeLinear", 13, attrs({{"axis", std::int64_t{0}}})}.run_one(
        {floats({2, 3}, {4, 4, 4, 8, 8, 8}), scales, zero_points});
  });
  REQUIRE(wrong_length);
  CHECK(wrong_length->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("DequantizeLinear computes (x - zero_point) * scale in float32") {
  check_floats(OpCall{"DequantizeLinear", 13}.run_one(
                   {uint8s({4}, {0, 3, 128, 255}), Tensor::scalar<float>(2), Tensor::scalar<std::uint8_t>(128)}),
               {4}, {-256, -250, 0, 254});
  check_floats(OpCall{"DequantizeLinear", 11}.run_one({Tensor::from_vector<std::int32_t>({2}, {-3, 5}), Tensor::scalar<float>(0.5f)}),
               {2}, {-1.5, 2.5});
}

TEST_CASE("DynamicQuantizeLinear derives scale and zero point from the range including 0") {
  // min -3, max 2: scale 5/255, zero point round(3 / scale) = 153.
  const auto mixed = OpCall{"DynamicQuantizeLinear", 11, {}, 3}.run({floats({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f})});
  check_values(mixed[0], DType::UInt8, {6}, {153, 255, 0, 26, 221, 179});
  check_floats(mixed[1], {}, {5.0 / 255.0}, 1e-6);
  check_values(mixed[2], DType::UInt8, {}, {153});
  // All negative: max is 0, so the zero point is 255.
  const auto negative = OpCall{"DynamicQuantizeLinear", 11, {}, 3}.run({floats({6}, {-1, -2.1f, -1.3f, -2.5f, -3.34f, -4})});
  check_values(negative[0], DType::UInt8, {6}, {191, 121, 172, 96, 42, 0});
  check_values(negative[2], DType::UInt8, {}, {255});
  const auto zeros = OpCall{"DynamicQuantizeLinear", 11, {}, 3}.run({Tensor(DType::Float32, {3})});
  check_values(zeros[0], DType::UInt8, {3}, {0, 0, 0});
  check_floats(zeros[1], {}, {0});
}

}  // namespace
}  // namespace asc::test
