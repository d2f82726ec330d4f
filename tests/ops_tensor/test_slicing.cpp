// Slice (clamping and negative steps), DepthToSpace/SpaceToDepth, ReverseSequence and Trilu on
// small tensors with hand-written expectations.
#include <cstdint>
#include <limits>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// x = [[0,1,2,3],[4,5,6,7],[8,9,10,11]]
Tensor grid() { return iota_floats({3, 4}); }

Tensor slice(const std::vector<std::int64_t>& starts, const std::vector<std::int64_t>& ends,
             const std::vector<std::int64_t>& axes, const std::vector<std::int64_t>& steps) {
  return OpCall{"Slice", 13}.run_one({grid(), int64s(starts), int64s(ends), int64s(axes), int64s(steps)});
}

TEST_CASE("Slice: starts/ends on several axes, defaults for axes and steps") {
  check_floats(OpCall{"Slice", 13}.run_one({grid(), int64s({0, 1}), int64s({2, 3})}), {2, 2}, {1, 2, 5, 6});
  check_floats(slice({1}, {1000}, {0}, {1}), {2, 4}, {4, 5, 6, 7, 8, 9, 10, 11});  // end clamped to 3
  check_floats(slice({-100}, {kMax}, {-1}, {3}), {3, 2}, {0, 3, 4, 7, 8, 11});  // start clamped to 0
  CHECK(slice({5}, {10}, {1}, {1}).shape() == Shape{3, 0});                   // start past the end
  CHECK(slice({2}, {1}, {1}, {1}).shape() == Shape{3, 0});                    // end before start
}

// At least 64K elements with the last axis kept contiguous: rows copied on the kernel's threads
// (tensor/strided_view.hpp), here with the outer axis walked backwards. x holds its flat index.
TEST_CASE("Slice of a large tensor on several threads: rows in reverse order") {
  OpCall slice{"Slice", 13};
  slice.threads = 3;
  // Rows 255 down to 0, columns 10 to 289: out[i, j] = x[255 - i, 10 + j].
  const Tensor y = slice.run_one({iota_floats({256, 300}), int64s({-1, 10}), int64s({-1000, 290}), int64s({0, 1}),
                                  int64s({-1, 1})});
  std::vector<double> expected;
  for (std::int64_t i = 0; i < 256; ++i)
    for (std::int64_t j = 0; j < 280; ++j) expected.push_back(static_cast<double>((255 - i) * 300 + 10 + j));
  CHECK(y.shape() == Shape{256, 280});
  CHECK(y.to_doubles() == expected);
}

TEST_CASE("Slice: negative steps walk backwards; the end clamps to -1") {
  // start -1 is the last column; end -1000 clamps to -1 so column 0 is included.
  check_floats(slice({-1}, {-1000}, {1}, {-1}), {3, 4}, {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
  // start 10 clamps to dim-1 = 3; columns 3, 1.
  check_floats(slice({10}, {0}, {1}, {-2}), {3, 2}, {3, 1, 7, 5, 11, 9});
  // INT64_MIN as the end means "through the first element".
  check_floats(slice({kMax, 1}, {kMin, 0}, {0, 1}, {-1, -1}), {3, 1}, {9, 5, 1});
  CHECK(slice({0}, {2}, {0}, {-1}).shape() == Shape{0, 4});
}

TEST_CASE("Slice: a zero step or repeated axis is invalid") {
  const auto zero = thrown_error([] { slice({0}, {2}, {0}, {0}); });
  REQUIRE(zero);
  CHECK(zero->code() == ErrorCode::InvalidOperator);
  const auto repeated = thrown_error([] { slice({0, 0}, {1, 1}, {0, -2}, {1, 1}); });
  REQUIRE(repeated);
  CHECK(repeated->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("DepthToSpace: DCR reads depth-column-row, CRD column-row-depth") {
  const Tensor x = iota_floats({1, 8, 1, 1});
  // C' = 2: DCR takes channel (i*2 + j)*2 + c', CRD channel c'*4 + i*2 + j.
  check_floats(OpCall{"DepthToSpace", 13, attrs({{"blocksize", std::int64_t{2}}})}.run_one({x}), {1, 2, 2, 2},
               {0, 2, 4, 6, 1, 3, 5, 7});
  check_floats(
      OpCall{"DepthToSpace", 13, attrs({{"blocksize", std::int64_t{2}}, {"mode", std::string("CRD")}})}
          .run_one({x}),
      {1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  // Width 2 with C' = 1: row i interleaves channels 2i and 2i+1 over the two columns.
  check_floats(OpCall{"DepthToSpace", 11, attrs({{"blocksize", std::int64_t{2}}})}.run_one(
                   {iota_floats({1, 4, 1, 2})}),
               {1, 1, 2, 4}, {0, 2, 1, 3, 4, 6, 5, 7});
}

TEST_CASE("SpaceToDepth undoes DepthToSpace in DCR mode") {
  const Tensor x = floats({1, 2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7});
  check_floats(OpCall{"SpaceToDepth", 13, attrs({{"blocksize", std::int64_t{2}}})}.run_one({x}), {1, 8, 1, 1},
               {0, 1, 2, 3, 4, 5, 6, 7});
  const auto indivisible = thrown_error([] {
    OpCall{"SpaceToDepth", 13, attrs({{"blocksize", std::int64_t{2}}})}.run_one({iota_floats({1, 1, 3, 2})});
  });
  REQUIRE(indivisible);
  CHECK(indivisible->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("ReverseSequence reverses the first sequence_lens steps of each batch entry") {
  // x[t, b] = 2t + b; batch 0 fully reversed, batch 1 only its first two steps.
  check_floats(OpCall{"ReverseSequence", 11}.run_one({iota_floats({4, 2}), int64s({4, 2})}), {4, 2},
               {6, 3, 4, 1, 2, 5, 0, 7});
  check_floats(
      OpCall{"ReverseSequence", 11, attrs({{"batch_axis", std::int64_t{0}}, {"time_axis", std::int64_t{1}}})}
          .run_one({iota_floats({2, 3}), int64s({2, 3})}),
      {2, 3}, {1, 0, 2, 5, 4, 3});
}

TEST_CASE("Trilu keeps the upper or lower triangle relative to diagonal k") {
  const Tensor x = iota_floats({3, 3});
  check_floats(OpCall{"Trilu", 14}.run_one({x}), {3, 3}, {0, 1, 2, 0, 4, 5, 0, 0, 8});
  check_floats(OpCall{"Trilu", 14}.run_one({x, Tensor::scalar<std::int64_t>(1)}), {3, 3}, {0, 1, 2, 0, 0, 5, 0, 0, 0});
  check_floats(
      OpCall{"Trilu", 14, attrs({{"upper", std::int64_t{0}}})}.run_one({x, Tensor::scalar<std::int64_t>(-1)}),
      {3, 3}, {0, 0, 0, 3, 0, 0, 6, 7, 0});
  // Batched: each 2x2 matrix separately.
  check_floats(OpCall{"Trilu", 14, attrs({{"upper", std::int64_t{0}}})}.run_one({iota_floats({2, 2, 2})}),
               {2, 2, 2}, {0, 0, 2, 3, 4, 0, 6, 7});
}

}  // namespace
}  // namespace asc::test
