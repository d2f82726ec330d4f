// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat and Split on small tensors whose
// expected layouts are written out by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

std::vector<double> iota(std::size_t n) {
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(i);
  return values;
}

TEST_CASE("Reshape: 0 copies the input dimension, -1 is inferred") {
  const Tensor x = iota_floats({2, 3, 4});
  const OpCall reshape{"Reshape", 13};
  check_floats(reshape.run_one({x, int64s({0, -1})}), {2, 12}, iota(24));
  check_floats(reshape.run_one({x, int64s({-1, 0, 2})}), {4, 3, 2}, iota(24));
  check_floats(reshape.run_one({x, int64s({24})}), {24}, iota(24));
}

TEST_CASE("Reshape: allowzero=1 (opset 14) keeps 0 as a zero-sized dimension") {
  const Tensor empty(DType::Float32, {0, 3});
  const Tensor allow =
      OpCall{"Reshape", 14, attrs({{"allowzero", std::int64_t{1}}})}.run_one({empty, int64s({3, 0})});
  CHECK(allow.shape() == Shape{3, 0});
  // Without allowzero the 0 copies input dimension 1 (3): 9 elements cannot come from 0.
  const auto copying = thrown_error([&] { OpCall{"Reshape", 14}.run_one({empty, int64s({3, 0})}); });
  REQUIRE(copying);
  CHECK(copying->code() == ErrorCode::InvalidOperator);
  // allowzero does not exist before opset 14: the attribute is ignored there.
  CHECK(OpCall{"Reshape", 13, attrs({{"allowzero", std::int64_t{1}}})}
            .run_one({iota_floats({2, 3}), int64s({0, 3})})
            .shape() == Shape{2, 3});
  const auto zero_and_infer = thrown_error([&] {
    OpCall{"Reshape", 14, attrs({{"allowzero", std::int64_t{1}}})}.run_one({empty, int64s({0, -1})});
  });
  REQUIRE(zero_and_infer);
  CHECK(zero_and_infer->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("Reshape: an element-count mismatch is an InvalidOperator error naming the node") {
  const auto error = thrown_error([] {
    OpCall{"Reshape", 13}.run_one({iota_floats({2, 3, 4}), int64s({5, 5})});
  });
  REQUIRE(error);
  CHECK(error->code() == ErrorCode::InvalidOperator);
  CHECK(error->message().find("under_test") != std::string::npos);
  CHECK(error->message().find("24") != std::string::npos);
  const auto two_inferred = thrown_error([] {
    OpCall{"Reshape", 13}.run_one({iota_floats({2, 3, 4}), int64s({-1, -1})});
  });
  REQUIRE(two_inferred);
  CHECK(two_inferred->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("Flatten splits the dimensions at axis") {
  const Tensor x = iota_floats({2, 3, 4});
  auto flatten = [&](std::int64_t axis) {
    return OpCall{"Flatten", 13, attrs({{"axis", axis}})}.run_one({x}).shape();
  };
  CHECK(flatten(0) == Shape{1, 24});
  CHECK(flatten(2) == Shape{6, 4});
  CHECK(flatten(-1) == Shape{6, 4});
  CHECK(flatten(3) == Shape{24, 1});
  CHECK(OpCall{"Flatten", 11}.run_one({x}).shape() == Shape{2, 12});  // default axis 1
}

TEST_CASE("Squeeze: axes attribute before opset 13, input from 13") {
  const Tensor x = iota_floats({1, 3, 1, 2});
  CHECK(OpCall{"Squeeze", 11, attrs({{"axes", std::vector<std::int64_t>{0}}})}.run_one({x}).shape() ==
        Shape{3, 1, 2});
  CHECK(OpCall{"Squeeze", 13}.run_one({x, int64s({-2})}).shape() == Shape{1, 3, 2});
  check_floats(OpCall{"Squeeze", 13}.run_one({x}), {3, 2}, iota(6));  // no axes: every 1
  const auto error = thrown_error([&] { OpCall{"Squeeze", 13}.run_one({x, int64s({1})}); });
  REQUIRE(error);
  CHECK(error->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("Unsqueeze: axes index the output; attribute before opset 13, input from 13") {
  const Tensor x = iota_floats({3, 2});
  CHECK(OpCall{"Unsqueeze", 11, attrs({{"axes", std::vector<std::int64_t>{0, 3}}})}.run_one({x}).shape() ==
        Shape{1, 3, 2, 1});
  check_floats(OpCall{"Unsqueeze", 13}.run_one({x, int64s({-1, 1})}), {3, 1, 2, 1}, iota(6));
  const auto repeated = thrown_error([&] { OpCall{"Unsqueeze", 13}.run_one({x, int64s({1, 1})}); });
  REQUIRE(repeated);
  CHECK(repeated->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("Transpose: default reverses the dimensions; perm permutes them") {
  check_floats(OpCall{"Transpose", 13}.run_one({iota_floats({2, 3})}), {3, 2}, {0, 3, 1, 4, 2, 5});
  // out[j, i, k] = x[i, j, k] = 6i + 2j + k
  check_floats(OpCall{"Transpose", 13, attrs({{"perm", std::vector<std::int64_t>{1, 0, 2}}})}.run_one(
                   {iota_floats({2, 3, 2})}),
               {3, 2, 2}, {0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11});
  const auto bad = thrown_error([] {
    OpCall{"Transpose", 13, attrs({{"perm", std::vector<std::int64_t>{0, 0}}})}.run_one(
        {iota_floats({2, 3})});
  });
  REQUIRE(bad);
  CHECK(bad->code() == ErrorCode::InvalidOperator);
}

// Views of at least 64K elements whose last axis stays contiguous are copied row by row on the
// kernel's threads (tensor/strided_view.hpp). x holds its own flat index, so each output element
// names the input element it must be.
TEST_CASE("Transpose and Split of large tensors on several threads, row by row") {
  // ViT's attention: [1, 197, 12, 64] -> [1, 12, 197, 64]; out[h, t, d] = x[t, h, d].
  OpCall transpose{"Transpose", 13, attrs({{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}})};
  transpose.threads = 3;
  std::vector<double> expected;
  for (std::int64_t h = 0; h < 12; ++h)
    for (std::int64_t t = 0; t < 197; ++t)
      for (std::int64_t d = 0; d < 64; ++d) expected.push_back(static_cast<double>((t * 12 + h) * 64 + d));
  const Tensor y = transpose.run_one({iota_floats({1, 197, 12, 64})});
  CHECK(y.shape() == Shape{1, 12, 197, 64});
  CHECK(y.to_doubles() == expected);

  // A fused QKV projection's output cut into Q, K and V: part i [t, j] = x[t, 768 i + j].
  OpCall split{"Split", 13, attrs({{"axis", std::int64_t{1}}}), 3};
  split.threads = 3;
  const auto parts = split.run({iota_floats({197, 2304})});
  for (std::int64_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    std::vector<double> part;
    for (std::int64_t t = 0; t < 197; ++t)
      for (std::int64_t j = 0; j < 768; ++j) part.push_back(static_cast<double>(t * 2304 + 768 * i + j));
    CHECK(parts[static_cast<std::size_t>(i)].shape() == Shape{197, 768});
    CHECK(parts[static_cast<std::size_t>(i)].to_doubles() == part);
  }
}

TEST_CASE("Concat joins along the axis, including empty inputs and int64") {
  const Tensor a = floats({2, 1}, {1, 2});
  const Tensor b = floats({2, 2}, {3, 4, 5, 6});
  const Tensor empty(DType::Float32, {2, 0});
  check_floats(OpCall{"Concat", 13, attrs({{"axis", std::int64_t{-1}}})}.run_one({a, empty, b}), {2, 3},
               {1, 3, 4, 2, 5, 6});
  check_floats(OpCall{"Concat", 13, attrs({{"axis", std::int64_t{0}}})}.run_one({b, b}), {4, 2},
               {3, 4, 5, 6, 3, 4, 5, 6});
  check_int64s(
      OpCall{"Concat", 11, attrs({{"axis", std::int64_t{0}}})}.run_one({int64s({1}), int64s({2, 3})}), {3},
      {1, 2, 3});
  const auto mismatch = thrown_error([&] {
    OpCall{"Concat", 13, attrs({{"axis", std::int64_t{0}}})}.run_one({a, b});
  });
  REQUIRE(mismatch);
  CHECK(mismatch->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("Split: explicit sizes (attribute < 13, input >= 13) and equal parts with a smaller last one") {
  const Tensor x = floats({7}, {1, 2, 3, 4, 5, 6, 7});
  const auto by_input = OpCall{"Split", 13, {}, 2}.run({x, int64s({2, 5})});
  check_floats(by_input[0], {2}, {1, 2});
  check_floats(by_input[1], {5}, {3, 4, 5, 6, 7});
  const auto by_attribute =
      OpCall{"Split", 11, attrs({{"split", std::vector<std::int64_t>{3, 4}}}), 2}.run({x});
  check_floats(by_attribute[0], {3}, {1, 2, 3});
  check_floats(by_attribute[1], {4}, {4, 5, 6, 7});
  const auto uneven = OpCall{"Split", 13, {}, 3}.run({x});
  check_floats(uneven[0], {3}, {1, 2, 3});
  check_floats(uneven[1], {3}, {4, 5, 6});
  check_floats(uneven[2], {1}, {7});
  const auto columns = OpCall{"Split", 13, attrs({{"axis", std::int64_t{1}}}), 2}.run({iota_floats({2, 4})});
  check_floats(columns[0], {2, 2}, {0, 1, 4, 5});
  check_floats(columns[1], {2, 2}, {2, 3, 6, 7});
  const auto bad_sum = thrown_error([&] { OpCall{"Split", 13, {}, 2}.run({x, int64s({2, 3})}); });
  REQUIRE(bad_sum);
  CHECK(bad_sum->code() == ErrorCode::InvalidOperator);
}

}  // namespace
}  // namespace asc::test
