// STFT of [1..6] in frames of 4 every 2 samples, worked by hand.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

using namespace asc;
using namespace asc::test;

namespace {

const Tensor kSignal = Tensor::from_vector<float>({1, 6, 1}, {1, 2, 3, 4, 5, 6});

}  // namespace

TEST_CASE("STFT with frame_length, onesided by default") {
  // Frames [1,2,3,4] and [3,4,5,6]: X0 = sum, X1 = x0 - x2 + i(x3 - x1), X2 = x0 - x1 + x2 - x3.
  const Tensor y = run_one("STFT", 17, {kSignal, Tensor::scalar<std::int64_t>(2), Tensor(), Tensor::scalar<std::int64_t>(4)});
  check_close(y, {1, 2, 3, 2}, {10, 0, -2, 2, -2, 0, 18, 0, -2, 2, -2, 0});
}

TEST_CASE("STFT with a window and two-sided output") {
  // Window [0,1,1,0] keeps x1 and x2: X_k = x1 exp(-i pi k/2) + x2 exp(-i pi k).
  const Tensor window = Tensor::from_vector<float>({4}, {0, 1, 1, 0});
  const Tensor y = run_one("STFT", 17, {kSignal, Tensor::scalar<std::int32_t>(2), window},
                           attrs({{"onesided", std::int64_t{0}}}));
  check_close(y, {1, 2, 4, 2}, {5, 0, -3, -2, 1, 0, -3, 2, 9, 0, -5, -4, 1, 0, -5, 4});
}

TEST_CASE("STFT inference, cost and errors") {
  const ValueInfo signal = ValueInfo::from_shape("s", DType::Float32, {1, 6, 1});
  const ValueInfo scalar = ValueInfo::from_shape("k", DType::Int64, {});
  const Tensor step = Tensor::scalar<std::int64_t>(2);
  const Tensor length = Tensor::scalar<std::int64_t>(4);
  const ValueInfo window = ValueInfo::from_shape("w", DType::Float32, {4});
  const std::vector<ValueInfo> known = infer_op("STFT", 17, {signal, scalar, window}, {}, 1, {nullptr, &step});
  CHECK(known[0].static_shape() == Shape{1, 2, 3, 2});
  const std::vector<ValueInfo> frames_unknown = infer_op("STFT", 17, {signal, scalar, window});
  CHECK_FALSE((*frames_unknown[0].shape)[1].is_static());
  CHECK((*frames_unknown[0].shape)[2].value == 3);

  const CostFacts cost = cost_op("STFT", 17, {signal, scalar, window},
                                 {ValueInfo::from_shape("y", DType::Float32, {1, 2, 3, 2})});
  CHECK(cost.unit == ComputeUnit::Vector);
  CHECK(cost.flops == doctest::Approx(8.0 * 4 * 6));

  const Tensor window3 = Tensor::from_vector<float>({3}, {1, 1, 1});
  CHECK(thrown_code([&] { run_one("STFT", 17, {kSignal, step, window3, length}); }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] { run_one("STFT", 17, {kSignal, step}); }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] { run_one("STFT", 17, {kSignal, Tensor::scalar<std::int64_t>(0), Tensor(), length}); }) ==
        ErrorCode::InvalidOperator);
  CHECK(thrown_code([&] { run_one("STFT", 17, {kSignal, step, Tensor(), Tensor::scalar<std::int64_t>(7)}); }) ==
        ErrorCode::InvalidOperator);
}
