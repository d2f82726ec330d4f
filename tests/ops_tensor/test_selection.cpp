// NonZero, Compress and Unique, on the worked examples of ONNX's operator documentation.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

TEST_CASE("NonZero lists the coordinates of non-zero elements, one row per dimension") {
  check_int64s(OpCall{"NonZero", 13}.run_one({floats({2, 2}, {1, 0, 1, 1})}), {2, 3}, {0, 1, 1, 0, 0, 1});
  check_int64s(OpCall{"NonZero", 13}.run_one({Tensor::from_vector<bool>({3}, {false, true, false})}), {1, 1}, {1});
  CHECK(OpCall{"NonZero", 11}.run_one({Tensor(DType::Int32, {2, 3})}).shape() == Shape{2, 0});
}

TEST_CASE("Compress keeps slices (or flattened elements) where the condition is true") {
  const Tensor x = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  auto condition = [](std::vector<bool> values) {
    const auto n = static_cast<std::int64_t>(values.size());
    return Tensor::from_vector<bool>({n}, values);
  };
  const Attributes axis0 = attrs({{"axis", std::int64_t{0}}});
  check_floats(OpCall{"Compress", 11, axis0}.run_one({x, condition({false, true, true})}), {2, 2}, {3, 4, 5, 6});
  check_floats(
      OpCall{"Compress", 11, attrs({{"axis", std::int64_t{-1}}})}.run_one({x, condition({false, true})}),
      {3, 1}, {2, 4, 6});
  check_floats(OpCall{"Compress", 11}.run_one({x, condition({false, true, false, false, true})}), {2}, {2, 5});
  const auto past_end = thrown_error([&] {
    OpCall{"Compress", 11, axis0}.run_one({x, condition({false, false, false, true})});
  });
  REQUIRE(past_end);
  CHECK(past_end->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("Unique without axis: sorted by default, or in order of first occurrence") {
  const Tensor x = floats({6}, {2, 1, 1, 3, 4, 3});
  const auto sorted = OpCall{"Unique", 11, {}, 4}.run({x});
  check_floats(sorted[0], {4}, {1, 2, 3, 4});
  check_int64s(sorted[1], {4}, {1, 0, 3, 4});
  check_int64s(sorted[2], {6}, {1, 0, 0, 2, 3, 2});
  check_int64s(sorted[3], {4}, {2, 1, 2, 1});
  const auto unsorted = OpCall{"Unique", 11, attrs({{"sorted", std::int64_t{0}}}), 4}.run({x});
  check_floats(unsorted[0], {4}, {2, 1, 3, 4});
  check_int64s(unsorted[1], {4}, {0, 1, 3, 4});
  check_int64s(unsorted[2], {6}, {0, 1, 1, 2, 3, 2});
  check_int64s(unsorted[3], {4}, {1, 2, 2, 1});
}

TEST_CASE("Unique with axis compares whole slices lexicographically") {
  const auto rows = OpCall{"Unique", 11, attrs({{"axis", std::int64_t{0}}}), 4}.run(
      {floats({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4})});
  check_floats(rows[0], {2, 3}, {1, 0, 0, 2, 3, 4});
  check_int64s(rows[1], {2}, {0, 2});
  check_int64s(rows[2], {3}, {0, 0, 1});
  check_int64s(rows[3], {2}, {2, 1});
  const auto middle = OpCall{"Unique", 11, attrs({{"axis", std::int64_t{1}}}), 4}.run(
      {floats({2, 4, 2}, {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1})});
  check_floats(middle[0], {2, 3, 2}, {0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1});
  check_int64s(middle[1], {3}, {1, 0, 2});
  check_int64s(middle[2], {4}, {1, 0, 2, 0});
  check_int64s(middle[3], {3}, {2, 1, 1});
}

}  // namespace
}  // namespace asc::test
