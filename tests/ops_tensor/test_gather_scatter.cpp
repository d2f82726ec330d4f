// Gather, GatherElements, GatherND, ScatterND and ScatterElements; several cases are the worked
// examples of ONNX's operator documentation.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Attributes axis(std::int64_t value) {
  return attrs({{"axis", value}});
}

TEST_CASE("Gather: negative indices count from the end; output = data[:axis] + indices + data[axis+1:]") {
  const Tensor data = iota_floats({3, 2});  // [[0,1],[2,3],[4,5]]
  check_floats(OpCall{"Gather", 13}.run_one({data, int64s({-1, 0})}), {2, 2}, {4, 5, 0, 1});
  // out[i, j, 0] = data[i, indices[j, 0]] with indices [[1], [-2]]
  check_floats(OpCall{"Gather", 13, axis(1)}.run_one({data, int64s({2, 1}, {1, -2})}), {3, 2, 1}, {1, 0, 3, 2, 5, 4});
  check_floats(OpCall{"Gather", 11}.run_one({data, Tensor::scalar<std::int64_t>(1)}), {2}, {2, 3});
  // int32 indices, int64 data.
  check_int64s(OpCall{"Gather", 13}.run_one({int64s({10, 20, 30}), Tensor::from_vector<std::int32_t>({2}, {-3, 2})}), {2},
               {10, 30});
  const auto out_of_range = thrown_error([&] { OpCall{"Gather", 13}.run_one({data, int64s({3})}); });
  REQUIRE(out_of_range);
  CHECK(out_of_range->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("GatherElements picks along the axis at every position of indices") {
  check_floats(OpCall{"GatherElements", 13, axis(1)}.run_one({floats({2, 2}, {1, 2, 3, 4}), int64s({2, 2}, {0, 0, 1, 0})}),
               {2, 2}, {1, 1, 4, 3});
  check_floats(OpCall{"GatherElements", 13, axis(0)}.run_one(
                   {floats({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), int64s({2, 3}, {1, 2, 0, 2, 0, 0})}),
               {2, 3}, {4, 8, 3, 7, 2, 3});
  check_floats(OpCall{"GatherElements", 11, axis(-1)}.run_one({floats({1, 3}, {5, 6, 7}), int64s({1, 2}, {-1, -3})}), {1, 2},
               {7, 5});
}

TEST_CASE("GatherND: coordinate tuples pick elements or slices; batch_dims pairs leading dimensions") {
  const Tensor square = floats({2, 2}, {0, 1, 2, 3});
  check_floats(OpCall{"GatherND", 13}.run_one({square, int64s({2, 2}, {0, 0, 1, 1})}), {2}, {0, 3});
  check_floats(OpCall{"GatherND", 13}.run_one({square, int64s({2, 1}, {1, 0})}), {2, 2}, {2, 3, 0, 1});
  check_floats(OpCall{"GatherND", 13, attrs({{"batch_dims", std::int64_t{1}}})}.run_one(
                   {iota_floats({2, 2, 2}), int64s({2, 1}, {1, 0})}),
               {2, 2}, {2, 3, 4, 5});
  check_floats(OpCall{"GatherND", 11}.run_one({square, int64s({1, 2}, {-1, 0})}), {1}, {2});
}

TEST_CASE("ScatterND overwrites by default and combines with reduction add/mul from opset 16") {
  const Tensor data = floats({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_floats(OpCall{"ScatterND", 13}.run_one({data, int64s({4, 1}, {4, 3, 1, 7}), floats({4}, {9, 10, 11, 12})}), {8},
               {1, 11, 3, 10, 9, 6, 7, 12});
  const Attributes add = attrs({{"reduction", std::string("add")}});
  check_floats(OpCall{"ScatterND", 16, add}.run_one({data, int64s({3, 1}, {4, 3, 4}), floats({3}, {9, 10, 11})}), {8},
               {1, 2, 3, 14, 25, 6, 7, 8});
  const Attributes mul = attrs({{"reduction", std::string("mul")}});
  check_floats(OpCall{"ScatterND", 16, mul}.run_one({data, int64s({2, 1}, {1, 1}), floats({2}, {2, 3})}), {8},
               {1, 12, 3, 4, 5, 6, 7, 8});
  // A tuple shorter than the rank replaces a whole row.
  check_floats(OpCall{"ScatterND", 11}.run_one({iota_floats({2, 3}), int64s({1, 1}, {1}), floats({1, 3}, {7, 8, 9})}),
               {2, 3}, {0, 1, 2, 7, 8, 9});
  const auto bad_reduction = thrown_error([&] {
    OpCall{"ScatterND", 16, attrs({{"reduction", std::string("max")}})}.run_one(
        {data, int64s({1, 1}, {0}), floats({1}, {1})});
  });
  REQUIRE(bad_reduction);
  CHECK(bad_reduction->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("ScatterElements writes updates at indices along the axis") {
  const Tensor zeros(DType::Float32, {3, 3});
  check_floats(OpCall{"ScatterElements", 13, axis(0)}.run_one(
                   {zeros, int64s({2, 3}, {1, 0, 2, 0, 2, 1}), floats({2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f})}),
               {3, 3}, {2.0, 1.1, 0.0, 1.0, 0.0, 2.2, 0.0, 2.1, 1.2});
  const Tensor row = floats({1, 5}, {1, 2, 3, 4, 5});
  check_floats(OpCall{"ScatterElements", 11, axis(1)}.run_one({row, int64s({1, 2}, {1, -3}), floats({1, 2}, {1.1f, 2.1f})}),
               {1, 5}, {1, 1.1, 2.1, 4, 5});
  check_floats(
      OpCall{"ScatterElements", 16, attrs({{"axis", std::int64_t{1}}, {"reduction", std::string("mul")}})}
          .run_one({row, int64s({1, 2}, {1, 1}), floats({1, 2}, {1.1f, 2.1f})}),
      {1, 5}, {1, 2 * 1.1 * 2.1, 3, 4, 5}, 1e-6);
}

}  // namespace
}  // namespace asc::test
