// Clip's attribute (opset 6) and input (opset 11+) forms, Cast/CastLike conversions, Identity
// and Dropout at inference.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

std::uint16_t bits_of(float16 value) {
  std::uint16_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
std::uint16_t bits_of(bfloat16 value) {
  std::uint16_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
float float_from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace

TEST_CASE("Clip opset 6 reads min/max attributes") {
  const Tensor x = floats({4}, {-2, 0.5f, 3, NAN});
  check_values(OpCall{"Clip", 6}.attr("min", -1.0f).attr("max", 1.0f).run_one({x}), DType::Float32, {4},
               {-1, 0.5, 1, std::nan("")});
  check_values(OpCall{"Clip", 6}.attr("max", 0.0f).run_one({x}), DType::Float32, {4},
               {-2, 0, 0, std::nan("")});
  check_values(OpCall{"Clip", 6}.run_one({x}), DType::Float32, {4}, {-2, 0.5, 3, std::nan("")});
  CHECK(thrown_code([] {
          OpCall{"Clip", 6}.run_one({tensor<std::int32_t>({1}, {1})});
        }) == ErrorCode::OperatorDtypeUnsupported);
}

TEST_CASE("Clip opset 11+ reads optional min/max inputs") {
  const Tensor x = floats({3}, {-2, 0.5f, 3});
  for (const std::int64_t opset : {11, 13}) {
    INFO("opset " << opset);
    check_values(OpCall{"Clip", opset}.run_one({x, floats({}, {-1}), floats({}, {1})}), DType::Float32, {3},
                 {-1, 0.5, 1});
    check_values(OpCall{"Clip", opset}.run_one({x, Tensor(), floats({}, {1})}), DType::Float32, {3},
                 {-2, 0.5, 1});
    check_values(OpCall{"Clip", opset}.run_one({x, floats({}, {0})}), DType::Float32, {3}, {0, 0.5, 3});
    check_values(OpCall{"Clip", opset}.run_one({x}), DType::Float32, {3}, {-2, 0.5, 3});
  }
  // as numpy.clip: min above max gives max everywhere
  check_values(OpCall{"Clip", 13}.run_one({x, floats({}, {2}), floats({}, {1})}), DType::Float32, {3},
               {1, 1, 1});
  // integer types from opset 12
  const Tensor ints = tensor<std::int8_t>({4}, {-128, -6, 5, 127});
  check_ints(OpCall{"Clip", 13}.run_one({ints}), DType::Int8, {4}, {-128, -6, 5, 127});
  check_ints(OpCall{"Clip", 13}.run_one({ints, tensor<std::int8_t>({}, {-5})}), DType::Int8, {4},
             {-5, -5, 5, 127});
  check_ints(OpCall{"Clip", 13}.run_one({ints, Tensor(), tensor<std::int8_t>({}, {0})}), DType::Int8, {4},
             {-128, -6, 0, 0});
  CHECK(thrown_code([&] {
          OpCall{"Clip", 13}.run_one({x, floats({2}, {0, 1})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] {
          OpCall{"Clip", 13}.run_one({x, tensor<double>({}, {0})});
        }) == ErrorCode::InvalidOperator);
}

TEST_CASE("Cast float to integers truncates toward zero") {
  const Tensor x = floats({5}, {1.9f, -1.9f, 2.5f, -0.5f, 300.0f});
  check_ints(OpCall{"Cast"}.attr("to", std::int64_t{6}).run_one({x}), DType::Int32, {5}, {1, -1, 2, 0, 300});
  check_ints(OpCall{"Cast"}.attr("to", std::int64_t{7}).run_one({x}), DType::Int64, {5}, {1, -1, 2, 0, 300});
  check_ints(OpCall{"Cast"}.attr("to", std::int64_t{9}).run_one({floats({3}, {0, 0.5f, -2})}), DType::Bool,
             {3}, {0, 1, 1});
  check_values(OpCall{"Cast"}.attr("to", std::int64_t{1}).run_one({bools({2}, {true, false})}),
               DType::Float32, {2}, {1, 0});
  check_values(
      OpCall{"Cast"}.attr("to", std::int64_t{11}).run_one({tensor<std::int64_t>({2}, {-3, 1 << 20})}),
      DType::Float64, {2}, {-3, 1 << 20});
}

TEST_CASE("Cast to float16 and bfloat16 rounds to nearest even") {
  const Tensor half = OpCall{"Cast"}.attr("to", std::int64_t{10}).run_one({floats({1}, {0.1f})});
  REQUIRE(half.dtype() == DType::Float16);
  CHECK(bits_of(half.data<float16>()[0]) == 0x2E66);
  check_values(OpCall{"Cast"}.attr("to", std::int64_t{1}).run_one({half}), DType::Float32, {1},
               {0.0999755859375}, 0, 0);
  check_values(OpCall{"Cast"}.attr("to", std::int64_t{10}).run_one({tensor<double>({2}, {65504.0, 1e6})}),
               DType::Float16, {2}, {65504, std::numeric_limits<double>::infinity()});

  // 0x3F808000 lies halfway between bfloat16 0x3F80 and 0x3F81: ties go to the even 0x3F80.
  const Tensor brain =
      OpCall{"Cast"}
          .attr("to", std::int64_t{16})
          .run_one({floats({2}, {float_from_bits(0x3F808000u), float_from_bits(0x3F808001u)})});
  REQUIRE(brain.dtype() == DType::BFloat16);
  CHECK(bits_of(brain.data<bfloat16>()[0]) == 0x3F80);
  CHECK(bits_of(brain.data<bfloat16>()[1]) == 0x3F81);
}

TEST_CASE("Cast: the same dtype shares the input; large float32 <-> float16 casts on several threads") {
  const Tensor x = floats({3}, {1, 2, 3});
  CHECK(OpCall{"Cast"}.attr("to", std::int64_t{1}).run_one({x}).data<float>() == x.data<float>());
  CHECK(OpCall{"CastLike"}.run_one({x, floats({1}, {0})}).data<float>() == x.data<float>());

  // 1 + i * 2^-12 for i in [0, 4096): fp16 keeps 1 + m * 2^-10, so i = 4m + r rounds to m for
  // r = 0 or 1, to m + 1 for r = 3, and for the tie r = 2 to whichever of m, m + 1 is even. The
  // last element, 65520, lies halfway between 65504 and 65536 (the next step past fp16's largest
  // finite): it rounds to infinity. Enough elements for the kernel to share them out in chunks.
  constexpr std::int64_t kCount = 3 * 65536 + 5;
  std::vector<float> values(kCount), expected(kCount);
  for (std::int64_t e = 0; e + 1 < kCount; ++e) {
    const std::int64_t i = e % 4096, m = i / 4, r = i % 4;
    const std::int64_t rounded = r < 2 ? m : r == 3 ? m + 1 : m + m % 2;
    const int scale = static_cast<int>(e % 5) - 2;  // and times 2^-2 to 2^2
    values[static_cast<std::size_t>(e)] = std::ldexp(1.0f + std::ldexp(static_cast<float>(i), -12), scale);
    expected[static_cast<std::size_t>(e)] = std::ldexp(1.0f + std::ldexp(static_cast<float>(rounded), -10), scale);
  }
  values.back() = 65520.0f;
  expected.back() = std::numeric_limits<float>::infinity();
  OpCall to_half{"Cast"};
  to_half.attr("to", std::int64_t{10});
  to_half.threads = 2;
  const Tensor half = to_half.run_one({floats({kCount}, values)});
  REQUIRE(half.dtype() == DType::Float16);
  OpCall to_float{"Cast"};
  to_float.attr("to", std::int64_t{1});
  to_float.threads = 2;
  const Tensor back = to_float.run_one({half});
  REQUIRE(back.dtype() == DType::Float32);
  const std::vector<float> got(back.data<float>(), back.data<float>() + kCount);
  std::int64_t mismatches = 0;
  for (std::size_t e = 0; e < got.size(); ++e) mismatches += got[e] != expected[e];
  CHECK(mismatches == 0);
}

TEST_CASE("Cast to string or an unknown type is refused") {
  CHECK(thrown_code([] { OpCall{"Cast"}.attr("to", std::int64_t{8}).run_one({floats({1}, {1})}); }) ==
        ErrorCode::OperatorDtypeUnsupported);
  CHECK(thrown_code([] {
          OpCall{"Cast"}.attr("to", std::int64_t{8}).infer_one({info(DType::Float32, {1})});
        }) == ErrorCode::OperatorDtypeUnsupported);
  CHECK(thrown_code([] { OpCall{"Cast"}.attr("to", std::int64_t{99}).run_one({floats({1}, {1})}); }) ==
        ErrorCode::InvalidOperator);
  CHECK(thrown_code([] { OpCall{"Cast"}.run_one({floats({1}, {1})}); }) == ErrorCode::InvalidOperator);
}

TEST_CASE("CastLike takes the dtype of its second input") {
  const Tensor out = OpCall{"CastLike"}.run_one(
      {tensor<double>({3}, {1.5, -2.25, 0.1}), tensor<float16>({1}, {float16(0.0f)})});
  REQUIRE(out.dtype() == DType::Float16);
  check_values(out, DType::Float16, {3}, {1.5, -2.25, 0.0999755859375}, 0, 0);
}

TEST_CASE("Identity shares the input") {
  const Tensor x = floats({2}, {1, 2});
  const Tensor out = OpCall{"Identity"}.run_one({x});
  CHECK(out.data<float>() == x.data<float>());
  CHECK(out.shape() == x.shape());
}

TEST_CASE("Dropout at inference passes the input through with an all-true mask") {
  const Tensor x = floats({2, 2}, {1, 2, 3, 4});
  OpCall dropout{"Dropout", 13};
  dropout.outputs = 2;
  const auto results = dropout.run({x});
  check_values(results[0], DType::Float32, {2, 2}, {1, 2, 3, 4});
  check_ints(results[1], DType::Bool, {2, 2}, {1, 1, 1, 1});

  // explicit ratio, training_mode false
  check_values(OpCall{"Dropout", 13}.run_one({x, floats({}, {0.7f}), bools({}, {false})}), DType::Float32,
               {2, 2}, {1, 2, 3, 4});
  // training with ratio 0 is deterministic
  check_values(OpCall{"Dropout", 13}.run_one({x, floats({}, {0.0f}), bools({}, {true})}), DType::Float32,
               {2, 2}, {1, 2, 3, 4});
  CHECK(thrown_code([&] {
          OpCall{"Dropout", 13}.run_one({x, floats({}, {0.5f}), bools({}, {true})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] {
          OpCall{"Dropout", 13}.run_one({x, Tensor(), bools({}, {true})});
        }) == ErrorCode::InvalidOperator);
  // opset 11: ratio attribute, no training mode
  check_values(OpCall{"Dropout", 11}.attr("ratio", 0.2f).run_one({x}), DType::Float32, {2, 2}, {1, 2, 3, 4});
}

}  // namespace asc::test
