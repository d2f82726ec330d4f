// Softmax, LogSoftmax and Hardmax on x = [[[0,1],[2,3]],[[1,1],[0,0]]]: opset 11 coerces to 2-D
// at the axis, opset 13 works along the single axis. Expected values written from the formulas.
#include <cmath>

#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

const double e = std::exp(1.0);

Tensor input() { return Tensor::from_vector<float>({2, 2, 2}, {0, 1, 2, 3, 1, 1, 0, 0}); }

Attributes axis_attribute(std::int64_t value) {
  return attrs({{"axis", value}});
}

std::vector<double> logs(std::vector<double> values) {
  for (double& v : values) v = std::log(v);
  return values;
}

// Opset 11, axis 1: rows [0,1,2,3] and [1,1,0,0].
std::vector<double> coerced_rows() {
  const double s0 = 1 + e + e * e + e * e * e;
  const double s1 = 2 * e + 2;
  return {1 / s0, e / s0, e * e / s0, e * e * e / s0, e / s1, e / s1, 1 / s1, 1 / s1};
}

// Opset 13, axis 1: pairs (x[i,0,k], x[i,1,k]) = (0,2), (1,3), (1,0), (1,0).
std::vector<double> along_axis_1() {
  const double a = 1 / (1 + e * e), b = e * e / (1 + e * e), c = e / (e + 1), d = 1 / (e + 1);
  return {a, a, b, b, c, c, d, d};
}

// Opset 13, default axis -1: pairs (0,1), (2,3), (1,1), (0,0).
std::vector<double> along_last_axis() {
  const double lo = 1 / (1 + e), hi = e / (1 + e);
  return {lo, hi, lo, hi, 0.5, 0.5, 0.5, 0.5};
}

TEST_CASE("Softmax: opset 11 coerces to 2-D, opset 13 uses one axis") {
  check_close(run_one("Softmax", 11, {input()}, axis_attribute(1)), {2, 2, 2}, coerced_rows());
  check_close(run_one("Softmax", 11, {input()}), {2, 2, 2}, coerced_rows());  // default axis 1
  check_close(run_one("Softmax", 13, {input()}, axis_attribute(1)), {2, 2, 2}, along_axis_1());
  check_close(run_one("Softmax", 13, {input()}), {2, 2, 2}, along_last_axis());  // default axis -1
  check_close(run_one("Softmax", 11, {input()}, axis_attribute(-1)), {2, 2, 2}, along_last_axis());
}

TEST_CASE("LogSoftmax follows the same axis rules") {
  check_close(run_one("LogSoftmax", 11, {input()}, axis_attribute(1)), {2, 2, 2}, logs(coerced_rows()));
  check_close(run_one("LogSoftmax", 13, {input()}, axis_attribute(1)), {2, 2, 2}, logs(along_axis_1()));
  check_close(run_one("LogSoftmax", 13, {input()}), {2, 2, 2}, logs(along_last_axis()));
}

TEST_CASE("Hardmax marks the first maximum") {
  check_close(run_one("Hardmax", 11, {input()}), {2, 2, 2}, {0, 0, 0, 1, 1, 0, 0, 0});
  check_close(run_one("Hardmax", 13, {input()}), {2, 2, 2}, {0, 1, 0, 1, 1, 0, 1, 0});
  check_close(run_one("Hardmax", 13, {input()}, axis_attribute(0)), {2, 2, 2}, {0, 1, 1, 1, 1, 0, 0, 0});
}

TEST_CASE("Softmax is stable for large inputs and keeps float16") {
  check_close(run_one("Softmax", 13, {Tensor::from_vector<float>({3}, {1000, 1000, -1000})}), {3}, {0.5, 0.5, 0});
  const Tensor half = Tensor::from_vector<float>({2}, {0, 0}).cast(DType::Float16);
  const Tensor y = run_one("Softmax", 13, {half});
  CHECK(y.dtype() == DType::Float16);
  check_close(y, {2}, {0.5, 0.5});
}

TEST_CASE("Softmax errors, inference and cost") {
  CHECK(thrown_code([] { run_one("Softmax", 13, {input()}, axis_attribute(3)); }) ==
        ErrorCode::InvalidOperator);
  CHECK(thrown_code([] { run_one("Softmax", 13, {Tensor::from_vector<std::int32_t>({2}, {1, 2})}); }) ==
        ErrorCode::OperatorDtypeUnsupported);
  const auto out = infer_op("Softmax", 13, {ValueInfo{"", DType::Float32, std::vector<Dim>{Dim::symbolic("n"), 5}}});
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("n"), 5});
  const CostFacts facts = cost_op("Softmax", 13, {ValueInfo::from_shape("x", DType::Float32, {2, 5})},
                                  {ValueInfo::from_shape("y", DType::Float32, {2, 5})});
  CHECK(facts.unit == ComputeUnit::Vector);
  CHECK(facts.flops > 0);
}

TEST_CASE("Softmax's vector work on an fp16 NPU counts its fp32 steps twice") {
  // Max, subtract, exp, sum, divide: 5 operations per element on a host or an fp32 device. On an
  // fp16 device, CANN's kernel runs cast, exp, sum, divide and cast at fp32, each instruction
  // covering half the elements: 2 + 2 x 5 = 12 fp16 instructions per element.
  const std::vector<ValueInfo> x{ValueInfo::from_shape("x", DType::Float32, {3, 8})};
  const std::vector<ValueInfo> y{ValueInfo::from_shape("y", DType::Float32, {3, 8})};
  const OpCall softmax{"Softmax", 13};
  CHECK(softmax.cost(x, y).flops == 5.0 * 24);
  CHECK(softmax.flops_on_device(x, y, 2) == 12.0 * 24);
  CHECK(softmax.flops_on_device(x, y, 4) == 5.0 * 24);
  CHECK(OpCall{"LogSoftmax", 13}.flops_on_device(x, y, 2) == 5.0 * 24);
}

}  // namespace
}  // namespace asc::test
