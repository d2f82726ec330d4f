// Shape/type inference from known (constant) input values and from partial shapes, and the
// cost facts the simulator reads.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

const Dim batch = Dim::symbolic("batch");

ValueInfo f32(std::initializer_list<Dim> shape) { return info(DType::Float32, dims(shape)); }
ValueInfo i64(std::initializer_list<Dim> shape) { return info(DType::Int64, dims(shape)); }

void check_info(const ValueInfo& actual, DType dtype, const std::optional<std::vector<Dim>>& expected) {
  CHECK(actual.dtype == dtype);
  REQUIRE(actual.shape.has_value() == expected.has_value());
  if (expected) CHECK(*actual.shape == *expected);
}

TEST_CASE("Reshape inference reads the shape value; 0 and -1 work with symbolic dims") {
  const OpCall reshape{"Reshape", 14};
  const Tensor flat = int64s({0, -1});
  check_info(reshape.infer({f32({2, 3, 4}), i64({2})}, {nullptr, &flat})[0], DType::Float32, dims({2, 12}));
  const Tensor keep_batch = int64s({0, 12});
  check_info(reshape.infer({f32({batch, 3, 4}), i64({2})}, {nullptr, &keep_batch})[0], DType::Float32, dims({batch, 12}));
  const Tensor infer_batch = int64s({-1, 12});
  check_info(reshape.infer({f32({batch, 3, 4}), i64({2})}, {nullptr, &infer_batch})[0], DType::Float32, dims({Dim(), 12}));
  // Unknown shape value: only the rank (from the shape input's length) is known.
  check_info(reshape.infer({f32({2, 3, 4}), i64({3})})[0], DType::Float32, dims({Dim(), Dim(), Dim()}));
  const Tensor wrong = int64s({5, 5});
  const auto mismatch = thrown_error([&] { reshape.infer({f32({2, 3, 4}), i64({2})}, {nullptr, &wrong}); });
  REQUIRE(mismatch);
  CHECK(mismatch->code() == ErrorCode::InvalidOperator);
  CHECK(mismatch->message().find("under_test") != std::string::npos);
}

TEST_CASE("Slice, Expand, Tile and Pad inference from constant parameters") {
  const Tensor starts = int64s({1}), ends = int64s({-1}), axes = int64s({1}), steps = int64s({1});
  check_info(OpCall{"Slice", 13}.infer({f32({batch, 10}), i64({1}), i64({1}), i64({1}), i64({1})},
                                      {nullptr, &starts, &ends, &axes, &steps})[0],
             DType::Float32, dims({batch, 8}));
  check_info(OpCall{"Slice", 13}.infer({f32({batch, 10}), i64({1}), i64({1})})[0], DType::Float32, dims({Dim(), Dim()}));
  const Tensor target = int64s({2, 1, 6});
  check_info(OpCall{"Expand", 13}.infer({f32({3, 1}), i64({3})}, {nullptr, &target})[0], DType::Float32, dims({2, 3, 6}));
  const Tensor repeats = int64s({1, 3});
  check_info(OpCall{"Tile", 13}.infer({f32({batch, 2}), i64({2})}, {nullptr, &repeats})[0], DType::Float32, dims({batch, 6}));
  const Tensor pads = int64s({0, 1, 0, 2});
  check_info(OpCall{"Pad", 13}.infer({f32({batch, 4}), i64({4})}, {nullptr, &pads})[0], DType::Float32, dims({batch, 7}));
}

TEST_CASE("Range, ConstantOfShape, Constant, Shape and Size inference") {
  const Tensor start = Tensor::scalar<std::int64_t>(0), limit = Tensor::scalar<std::int64_t>(10),
               delta = Tensor::scalar<std::int64_t>(3);
  check_info(OpCall{"Range", 11}.infer({i64({}), i64({}), i64({})}, {&start, &limit, &delta})[0], DType::Int64, dims({4}));
  check_info(OpCall{"Range", 11}.infer({i64({}), i64({}), i64({})})[0], DType::Int64, dims({Dim()}));
  const Tensor shape = int64s({2, 5});
  check_info(OpCall{"ConstantOfShape", 11, attrs({{"value", int64s({1})}})}.infer({i64({2})}, {&shape})[0],
             DType::Int64, dims({2, 5}));
  check_info(OpCall{"ConstantOfShape", 11}.infer({i64({3})})[0], DType::Float32, dims({Dim(), Dim(), Dim()}));
  check_info(OpCall{"Constant", 13, attrs({{"value", iota_floats({2, 3})}})}.infer({})[0], DType::Float32,
             dims({2, 3}));
  check_info(OpCall{"Shape", 15, attrs({{"start", std::int64_t{1}}})}.infer({f32({batch, 3, 4})})[0],
             DType::Int64, dims({2}));
  check_info(OpCall{"Shape", 13}.infer({info(DType::Float32, std::nullopt)})[0], DType::Int64, dims({Dim()}));
  check_info(OpCall{"Size", 13}.infer({f32({batch, 3})})[0], DType::Int64, dims({}));
}

TEST_CASE("Squeeze/Unsqueeze, Concat, Split, Gather and Resize inference") {
  const Tensor axes = int64s({0});
  check_info(OpCall{"Squeeze", 13}.infer({f32({1, batch}), i64({1})}, {nullptr, &axes})[0], DType::Float32, dims({batch}));
  check_info(OpCall{"Unsqueeze", 13}.infer({f32({batch}), i64({1})}, {nullptr, &axes})[0], DType::Float32, dims({1, batch}));
  check_info(
      OpCall{"Unsqueeze", 11, attrs({{"axes", std::vector<std::int64_t>{-1}}})}.infer({f32({batch})})[0],
      DType::Float32, dims({batch, 1}));
  const OpCall concat{"Concat", 13, attrs({{"axis", std::int64_t{1}}})};
  check_info(concat.infer({f32({batch, 3}), f32({batch, 4})})[0], DType::Float32, dims({batch, 7}));
  check_info(concat.infer({f32({2, 3}), f32({2, batch})})[0], DType::Float32, dims({2, Dim()}));
  const auto parts = OpCall{"Split", 13, {}, 3}.infer({f32({7, batch})});
  check_info(parts[2], DType::Float32, dims({1, batch}));
  check_info(OpCall{"Gather", 13, attrs({{"axis", std::int64_t{1}}})}.infer({f32({3, 4}), i64({2, 5})})[0],
             DType::Float32, dims({3, 2, 5}));
  const Tensor scales = floats({4}, {1, 1, 2, 2});
  check_info(OpCall{"Resize", 13}.infer({f32({batch, 3, 4, 4}), absent(), f32({4})}, {nullptr, nullptr, &scales})[0],
             DType::Float32, dims({batch, 3, 8, 8}));
  const Tensor sizes = int64s({1, 3, 5, 6});
  check_info(OpCall{"Resize", 13}.infer({f32({1, 3, 4, 4}), absent(), absent(), i64({4})}, {nullptr, nullptr, nullptr, &sizes})[0],
             DType::Float32, dims({1, 3, 5, 6}));
}

TEST_CASE("Output dtypes of NonZero, Unique and the quantization operators") {
  check_info(OpCall{"NonZero", 13}.infer({f32({2, 3})})[0], DType::Int64, dims({2, Dim()}));
  const auto unique = OpCall{"Unique", 11, {}, 4}.infer({f32({5})});
  check_info(unique[0], DType::Float32, dims({Dim()}));
  check_info(unique[3], DType::Int64, dims({Dim()}));
  check_info(OpCall{"QuantizeLinear", 13}.infer({f32({batch}), f32({})})[0], DType::UInt8, dims({batch}));
  check_info(OpCall{"QuantizeLinear", 13}.infer({f32({batch}), f32({}), info(DType::Int8, dims({}))})[0], DType::Int8,
             dims({batch}));
  check_info(OpCall{"DequantizeLinear", 13}.infer({info(DType::UInt8, dims({4})), f32({})})[0], DType::Float32, dims({4}));
  const auto dynamic = OpCall{"DynamicQuantizeLinear", 11, {}, 3}.infer({f32({2, 2})});
  check_info(dynamic[0], DType::UInt8, dims({2, 2}));
  check_info(dynamic[1], DType::Float32, dims({}));
}

TEST_CASE("Cost facts: metadata ops move nothing, data movement reads and writes, NonZero runs on Scalar") {
  const CostFacts reshape = OpCall{"Reshape", 13}.cost({static_info(DType::Float32, {2, 3}), static_info(DType::Int64, {1})},
                                                        {static_info(DType::Float32, {6})});
  CHECK(reshape.unit == ComputeUnit::None);
  CHECK(reshape.bytes_read == 0);
  const CostFacts transpose = OpCall{"Transpose", 13}.cost({static_info(DType::Float32, {2, 3})},
                                                            {static_info(DType::Float32, {3, 2})});
  CHECK(transpose.unit == ComputeUnit::Vector);
  CHECK(transpose.bytes_read == 24);
  CHECK(transpose.bytes_written == 24);
  CHECK(transpose.flops == 0);
  // An embedding lookup reads the rows it picks and the indices, not the table: 3 of 1000 rows of 8
  // floats (96 bytes) and 3 int64 indices (24 bytes).
  const CostFacts gather = OpCall{"Gather", 13}.cost({static_info(DType::Float32, {1000, 8}), static_info(DType::Int64, {1, 3})},
                                                      {static_info(DType::Float32, {1, 3, 8})});
  CHECK(gather.unit == ComputeUnit::Vector);
  CHECK(gather.bytes_read == 96 + 24);
  CHECK(gather.bytes_written == 96);
  // A slice reads the part it picks and its parameters: the middle third of a [4, 6] float tensor
  // along axis 1 (4 x 2 floats, 32 bytes) and three one-element int64 inputs (24 bytes).
  const CostFacts slice = OpCall{"Slice", 13}.cost({static_info(DType::Float32, {4, 6}), static_info(DType::Int64, {1}),
                                                    static_info(DType::Int64, {1}), static_info(DType::Int64, {1})},
                                                   {static_info(DType::Float32, {4, 2})});
  CHECK(slice.unit == ComputeUnit::Vector);
  CHECK(slice.bytes_read == 32 + 24);
  CHECK(slice.bytes_written == 32);
  CHECK(OpCall{"NonZero", 13}.cost({static_info(DType::Float32, {4})}, {info(DType::Int64, dims({1, Dim()}))}).unit ==
        ComputeUnit::Scalar);
  // Linear resize of two axes: 4 taps, 2 flops each, per output element.
  const CostFacts resize = OpCall{"Resize", 13, attrs({{"mode", std::string("linear")}})}.cost(
      {static_info(DType::Float32, {1, 1, 2, 2}), static_info(DType::Float32, {0}),
       static_info(DType::Float32, {4})},
      {static_info(DType::Float32, {1, 1, 4, 4})});
  CHECK(resize.flops == 8 * 16);
}

}  // namespace
}  // namespace asc::test
