// Hann, Hamming and Blackman windows of length 4, worked by hand: cos(2 pi n / N) for n = 0..3 is
// 1, 0, -1, 0 when periodic (N = 4); 1, -1/2, -1/2, 1 when symmetric (N = 3).
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

using namespace asc;
using namespace asc::test;

namespace {

const Tensor kFour = Tensor::scalar<std::int64_t>(4);

Attributes symmetric() { return attrs({{"periodic", std::int64_t{0}}}); }

}  // namespace

TEST_CASE("HannWindow periodic and symmetric") {
  const Tensor periodic = run_one("HannWindow", 17, {kFour});
  CHECK(periodic.dtype() == DType::Float32);
  check_close(periodic, {4}, {0, 0.5, 1, 0.5});
  check_close(run_one("HannWindow", 17, {Tensor::scalar<std::int32_t>(4)}, symmetric()), {4}, {0, 0.75, 0.75, 0});
}

TEST_CASE("HammingWindow and BlackmanWindow periodic") {
  check_close(run_one("HammingWindow", 17, {kFour}), {4}, {4.0 / 46, 25.0 / 46, 1, 25.0 / 46});
  // 0.42 - 0.5 cos + 0.08 cos(2x): 0, 0.34, 1, 0.34.
  check_close(run_one("BlackmanWindow", 17, {kFour}), {4}, {0, 0.34, 1, 0.34}, 1e-5, 1e-7);
}

TEST_CASE("window output_datatype, size 1 and size 0") {
  const Tensor as_double = run_one("HannWindow", 17, {kFour}, attrs({{"output_datatype", std::int64_t{11}}}));
  CHECK(as_double.dtype() == DType::Float64);
  check_close(as_double, {4}, {0, 0.5, 1, 0.5}, 0, 1e-15);
  // uint8 truncates: 0, 0.5, 1, 0.5 -> 0, 0, 1, 0.
  const Tensor as_bytes = run_one("HannWindow", 17, {kFour}, attrs({{"output_datatype", std::int64_t{2}}}));
  CHECK(as_bytes.dtype() == DType::UInt8);
  CHECK(as_bytes.to_int64s() == std::vector<std::int64_t>{0, 0, 1, 0});
  check_close(run_one("HannWindow", 17, {Tensor::scalar<std::int64_t>(1)}, symmetric()), {1}, {1});
  CHECK(run_one("HannWindow", 17, {Tensor::scalar<std::int64_t>(0)}).shape() == Shape{0});
}

TEST_CASE("window inference, cost and errors") {
  const ValueInfo size = ValueInfo::from_shape("size", DType::Int64, {});
  CHECK(infer_op("HannWindow", 17, {size}, {}, 1, {&kFour})[0].static_shape() == Shape{4});
  const std::vector<ValueInfo> unknown = infer_op("BlackmanWindow", 17, {size});
  CHECK(unknown[0].dtype == DType::Float32);
  REQUIRE(unknown[0].shape);
  CHECK(unknown[0].shape->size() == 1);
  CHECK_FALSE((*unknown[0].shape)[0].is_static());
  CHECK(cost_op("HammingWindow", 17, {size}, {ValueInfo::from_shape("y", DType::Float32, {4})}).unit ==
        ComputeUnit::Vector);
  CHECK(thrown_code([&] { run_one("HannWindow", 17, {Tensor::scalar<std::int64_t>(-1)}); }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] { run_one("HannWindow", 17, {Tensor::scalar<float>(4)}); }) ==
        ErrorCode::OperatorDtypeUnsupported);
  CHECK(thrown_code([&] { run_one("HannWindow", 17, {kFour}, attrs({{"output_datatype", std::int64_t{9}}})); }) ==
        ErrorCode::OperatorDtypeUnsupported);
}
