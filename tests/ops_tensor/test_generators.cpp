// Operators that produce tensors from attributes or shapes: Constant, ConstantOfShape, Range,
// EyeLike, OneHot, Shape and Size.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

TEST_CASE("Constant outputs its value in every attribute form") {
  const Tensor value = floats({2}, {1.5f, -2.0f});
  check_floats(OpCall{"Constant", 13, attrs({{"value", value}})}.run_one({}), {2}, {1.5, -2.0});
  check_floats(OpCall{"Constant", 13, attrs({{"value_float", 0.25f}})}.run_one({}), {}, {0.25});
  check_floats(OpCall{"Constant", 13, attrs({{"value_floats", std::vector<float>{1, 2, 3}}})}.run_one({}),
               {3}, {1, 2, 3});
  check_int64s(OpCall{"Constant", 12, attrs({{"value_int", std::int64_t{-4}}})}.run_one({}), {}, {-4});
  check_int64s(OpCall{"Constant", 12, attrs({{"value_ints", std::vector<std::int64_t>{4, 5}}})}.run_one({}),
               {2}, {4, 5});
  const auto text = thrown_error([] {
    OpCall{"Constant", 13, attrs({{"value_string", std::string("x")}})}.run_one({});
  });
  REQUIRE(text);
  CHECK(text->code() == ErrorCode::OperatorDtypeUnsupported);
  const auto sparse = thrown_error([&] {
    OpCall{"Constant", 13, attrs({{"sparse_value", value}})}.run_one({});
  });
  REQUIRE(sparse);
  CHECK(sparse->code() == ErrorCode::UnsupportedOperator);
  const auto none = thrown_error([] { OpCall{"Constant", 13}.run_one({}); });
  REQUIRE(none);
  CHECK(none->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("ConstantOfShape fills the shape with value (float32 0 by default)") {
  check_floats(OpCall{"ConstantOfShape", 11}.run_one({int64s({2, 3})}), {2, 3}, std::vector<double>(6, 0.0));
  check_int64s(OpCall{"ConstantOfShape", 11, attrs({{"value", int64s({7})}})}.run_one({int64s({3})}), {3},
               {7, 7, 7});
  check_floats(OpCall{"ConstantOfShape", 11, attrs({{"value", floats({1}, {2.5f})}})}.run_one({int64s({})}),
               {}, {2.5});
}

TEST_CASE("Range counts ceil((limit - start) / delta) steps in the scalars' type") {
  check_floats(OpCall{"Range", 11}.run_one({Tensor::scalar<float>(1), Tensor::scalar<float>(5), Tensor::scalar<float>(2)}),
               {2}, {1, 3});
  check_floats(OpCall{"Range", 11}.run_one({Tensor::scalar<float>(0), Tensor::scalar<float>(1), Tensor::scalar<float>(0.3f)}),
               {4}, {0, 0.3, 0.6, 0.9});
  check_int64s(OpCall{"Range", 11}.run_one({Tensor::scalar<std::int64_t>(10), Tensor::scalar<std::int64_t>(4),
                                            Tensor::scalar<std::int64_t>(-3)}),
               {2}, {10, 7});
  const Tensor empty = OpCall{"Range", 11}.run_one(
      {Tensor::scalar<std::int32_t>(0), Tensor::scalar<std::int32_t>(0), Tensor::scalar<std::int32_t>(1)});
  CHECK(empty.dtype() == DType::Int32);
  CHECK(empty.shape() == Shape{0});
  const auto zero_delta = thrown_error([] {
    OpCall{"Range", 11}.run_one({Tensor::scalar<float>(0), Tensor::scalar<float>(1), Tensor::scalar<float>(0)});
  });
  REQUIRE(zero_delta);
  CHECK(zero_delta->code() == ErrorCode::InvalidOperator);
}

TEST_CASE("EyeLike puts ones on diagonal k, in the dtype attribute's type") {
  check_floats(
      OpCall{"EyeLike", 11, attrs({{"k", std::int64_t{1}}})}.run_one({Tensor(DType::Float32, {3, 4})}),
      {3, 4}, {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  // dtype 7 is ONNX's INT64.
  check_int64s(OpCall{"EyeLike", 11, attrs({{"k", std::int64_t{-1}}, {"dtype", std::int64_t{7}}})}.run_one(
                   {Tensor(DType::Float32, {3, 2})}),
               {3, 2}, {0, 0, 1, 0, 0, 1});
  CHECK(OpCall{"EyeLike", 11}.run_one({Tensor(DType::Int32, {2, 2})}).dtype() == DType::Int32);
}

TEST_CASE("OneHot inserts the depth dimension at axis; negative indices count from depth") {
  const Tensor indices = floats({4}, {0, -1, 5, 1});  // 5 is out of range: all off
  const Tensor depth = Tensor::scalar<std::int64_t>(3);
  check_floats(OpCall{"OneHot", 11}.run_one({indices, depth, floats({2}, {0, 1})}), {4, 3},
               {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
  check_int64s(
      OpCall{"OneHot", 11, attrs({{"axis", std::int64_t{0}}})}.run_one({indices, depth, int64s({2, 5})}),
      {3, 4}, {5, 2, 2, 2, 2, 2, 2, 5, 2, 5, 2, 2});
}

TEST_CASE("Shape (start/end from opset 15) and Size") {
  const Tensor x(DType::Float32, {2, 3, 4});
  check_int64s(OpCall{"Shape", 13}.run_one({x}), {3}, {2, 3, 4});
  check_int64s(OpCall{"Shape", 15, attrs({{"start", std::int64_t{1}}})}.run_one({x}), {2}, {3, 4});
  check_int64s(OpCall{"Shape", 15, attrs({{"end", std::int64_t{-1}}})}.run_one({x}), {2}, {2, 3});
  check_int64s(
      OpCall{"Shape", 15, attrs({{"start", std::int64_t{-10}}, {"end", std::int64_t{10}}})}.run_one({x}), {3},
      {2, 3, 4});
  check_int64s(
      OpCall{"Shape", 15, attrs({{"start", std::int64_t{2}}, {"end", std::int64_t{1}}})}.run_one({x}), {0},
      {});
  check_int64s(OpCall{"Size", 13}.run_one({x}), {}, {24});
}

}  // namespace
}  // namespace asc::test
