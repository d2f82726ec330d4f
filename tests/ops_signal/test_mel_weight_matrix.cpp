// MelWeightMatrix with 2 mel bins over a 16-point DFT at 16 Hz up to 8 Hz. Below 700 Hz the mel
// scale is nearly linear, so the 4 edges sit just below 0, 2, 4, 6 Hz, i.e. spectrum bins
// floor(17 * hz / 16) = 0, 2, 4, 6 (2.12, 4.24, 6.37 before flooring): triangles 0-2-4 and 2-4-6.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

using namespace asc;
using namespace asc::test;

namespace {

std::vector<Tensor> inputs(float upper_hz) {
  return {Tensor::scalar<std::int64_t>(2), Tensor::scalar<std::int64_t>(16), Tensor::scalar<std::int64_t>(16),
          Tensor::scalar<float>(0), Tensor::scalar<float>(upper_hz)};
}

}  // namespace

TEST_CASE("MelWeightMatrix triangles") {
  const Tensor matrix = run_one("MelWeightMatrix", 17, inputs(8));
  CHECK(matrix.dtype() == DType::Float32);
  check_close(matrix, {9, 2},
              {0, 0,  //
               0.5, 0,  //
               1, 0,  //
               0.5, 0.5,  //
               0, 1,  //
               0, 0.5,  //
               0, 0,  //
               0, 0,  //
               0, 0});
}

TEST_CASE("MelWeightMatrix inference, cost and errors") {
  const ValueInfo scalar_int = ValueInfo::from_shape("i", DType::Int64, {});
  const ValueInfo scalar_float = ValueInfo::from_shape("f", DType::Float32, {});
  const Tensor bins = Tensor::scalar<std::int64_t>(2);
  const Tensor length = Tensor::scalar<std::int64_t>(16);
  const std::vector<ValueInfo> in{scalar_int, scalar_int, scalar_int, scalar_float, scalar_float};
  const std::vector<ValueInfo> known =
      infer_op("MelWeightMatrix", 17, in, attrs({{"output_datatype", std::int64_t{11}}}), 1, {&bins, &length});
  CHECK(known[0].dtype == DType::Float64);
  CHECK(known[0].static_shape() == Shape{9, 2});
  CHECK(cost_op("MelWeightMatrix", 17, in, {ValueInfo::from_shape("y", DType::Float32, {9, 2})}).unit ==
        ComputeUnit::Vector);
  // Edges beyond the spectrum (upper edge past the Nyquist frequency).
  CHECK(thrown_code([&] { run_one("MelWeightMatrix", 17, inputs(40)); }) == ErrorCode::InvalidOperator);
  std::vector<Tensor> no_bins = inputs(8);
  no_bins[0] = Tensor::scalar<std::int64_t>(0);
  CHECK(thrown_code([&] { run_one("MelWeightMatrix", 17, no_bins); }) == ErrorCode::InvalidOperator);
}
