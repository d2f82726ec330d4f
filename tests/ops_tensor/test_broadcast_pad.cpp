// Expand (bidirectional broadcasting), Tile and Pad (constant, reflect, edge, cropping).
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

TEST_CASE("Expand broadcasts both ways, like numpy") {
  const Tensor column = floats({3, 1}, {1, 2, 3});
  const Tensor expanded = OpCall{"Expand", 13}.run_one({column, int64s({2, 1, 6})});
  std::vector<double> expected;
  for (int copy = 0; copy < 2; ++copy)
    for (double v : {1.0, 2.0, 3.0})
      for (int j = 0; j < 6; ++j) expected.push_back(v);
  check_floats(expanded, {2, 3, 6}, expected);
  // A 1 in the requested shape keeps the input's dimension; a shorter shape is right-aligned.
  check_floats(OpCall{"Expand", 13}.run_one({column, int64s({1, 1})}), {3, 1}, {1, 2, 3});
  check_floats(OpCall{"Expand", 11}.run_one({column, int64s({4})}), {3, 4}, {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
  check_int64s(OpCall{"Expand", 13}.run_one({int64s({7}), int64s({3})}), {3}, {7, 7, 7});
  const auto incompatible = thrown_error([&] { OpCall{"Expand", 13}.run_one({column, int64s({2, 2})}); });
  REQUIRE(incompatible);
  CHECK(incompatible->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("Tile repeats the input along each dimension") {
  const Tensor x = floats({2, 2}, {1, 2, 3, 4});
  check_floats(OpCall{"Tile", 13}.run_one({x, int64s({2, 1})}), {4, 2}, {1, 2, 3, 4, 1, 2, 3, 4});
  check_floats(OpCall{"Tile", 13}.run_one({x, int64s({1, 2})}), {2, 4}, {1, 2, 1, 2, 3, 4, 3, 4});
  check_floats(OpCall{"Tile", 11}.run_one({x, int64s({2, 2})}), {4, 4},
               {1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4});
  CHECK(OpCall{"Tile", 13}.run_one({x, int64s({0, 3})}).shape() == Shape{0, 6});
  const auto wrong_length = thrown_error([&] { OpCall{"Tile", 13}.run_one({x, int64s({2})}); });
  REQUIRE(wrong_length);
  CHECK(wrong_length->code() == ErrorCode::InvalidOperator);
}

// ONNX's Pad documentation example.
Tensor pad_example() { return floats({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f}); }

Tensor pad(const Tensor& x, const std::string& mode, const std::vector<std::int64_t>& pads, Tensor value = {}) {
  return OpCall{"Pad", 13, attrs({{"mode", mode}})}.run_one({x, int64s(pads), value});
}

TEST_CASE("Pad: constant mode with the default 0 and a given value") {
  check_floats(pad(pad_example(), "constant", {0, 2, 0, 0}), {3, 4}, {0, 0, 1.0, 1.2, 0, 0, 2.3, 3.4, 0, 0, 4.5, 5.7});
  check_floats(pad(pad_example(), "constant", {1, 0, 0, 1}, Tensor::scalar<float>(1.5f)), {4, 3},
               {1.5, 1.5, 1.5, 1.0, 1.2, 1.5, 2.3, 3.4, 1.5, 4.5, 5.7, 1.5});
  check_int64s(OpCall{"Pad", 11}.run_one({int64s({1, 2}), int64s({1, 1}), Tensor::scalar<std::int64_t>(9)}), {4},
               {9, 1, 2, 9});
}

TEST_CASE("Pad: reflect mirrors without repeating the edge, edge repeats it") {
  check_floats(pad(pad_example(), "reflect", {0, 2, 0, 0}), {3, 4},
               {1.0, 1.2, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7, 4.5, 5.7});
  check_floats(pad(pad_example(), "edge", {0, 2, 0, 0}), {3, 4},
               {1.0, 1.0, 1.0, 1.2, 2.3, 2.3, 2.3, 3.4, 4.5, 4.5, 4.5, 5.7});
  const Tensor line = floats({3}, {1, 2, 3});
  check_floats(pad(line, "reflect", {2, 2}), {7}, {3, 2, 1, 2, 3, 2, 1});
  check_floats(pad(line, "edge", {2, 1}), {6}, {1, 1, 1, 2, 3, 3});
}

TEST_CASE("Pad: negative pads crop") {
  check_floats(pad(pad_example(), "constant", {-1, 0, 0, -1}), {2, 1}, {2.3, 4.5});
  const auto too_much = thrown_error([] { pad(pad_example(), "constant", {-2, 0, -2, 0}); });
  REQUIRE(too_much);
  CHECK(too_much->code() == ErrorCode::InvalidOperator);
  const auto wrong_count = thrown_error([] { pad(pad_example(), "constant", {1, 1}); });
  REQUIRE(wrong_count);
  CHECK(wrong_count->code() == ErrorCode::InvalidOperator);
}

}  // namespace
}  // namespace asc::test
