// Resize: the 2x half_pixel linear upsample and the nearest rounding modes are worked out by hand
// in the comments; cubic and tf_crop_and_resize expectations come from ONNX's reference
// implementation (onnx/backend/test/case/node/resize.py, interpolate_nd) run with numpy.
// GridSample: the examples of ONNX's GridSample documentation (values computed with PyTorch).
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Attributes resize_attributes(std::initializer_list<std::pair<std::string, AttributeValue>> values) {
  return attrs(values);
}

Tensor resize_scales(const OpCall& call, const Tensor& x, const std::vector<float>& scales) {
  const auto n = static_cast<std::int64_t>(scales.size());
  return call.run_one({x, Tensor(), floats({n}, scales)});
}

Tensor resize_sizes(const OpCall& call, const Tensor& x, const std::vector<std::int64_t>& sizes, Tensor roi = {}) {
  return call.run_one({x, roi, Tensor(), int64s(sizes)});
}

TEST_CASE("Resize linear half_pixel: 2x upsample of [[1,2],[3,4]]") {
  // Along each axis x_in = (x_out + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25; indices past the
  // edges repeat the edge, so a row [a, b] becomes [a, a + (b-a)/4, a + 3(b-a)/4, b].
  const Tensor x = floats({1, 1, 2, 2}, {1, 2, 3, 4});
  const OpCall linear{"Resize", 13, resize_attributes({{"mode", std::string("linear")}})};
  const std::vector<double> expected{1.0, 1.25, 1.75, 2.0, 1.5, 1.75, 2.25, 2.5,
                                     2.5, 2.75, 3.25, 3.5, 3.0, 3.25, 3.75, 4.0};
  check_floats(resize_scales(linear, x, {1, 1, 2, 2}), {1, 1, 4, 4}, expected);
  check_floats(resize_sizes(linear, x, {1, 1, 4, 4}), {1, 1, 4, 4}, expected);
  // Opset 11: roi and scales are required inputs; an empty scales tensor defers to sizes.
  const OpCall opset11{"Resize", 11, resize_attributes({{"mode", std::string("linear")}})};
  check_floats(opset11.run_one({x, floats({0}, {}), floats({0}, {}), int64s({1, 1, 4, 4})}), {1, 1, 4, 4}, expected);
}

TEST_CASE("Resize nearest: rounding modes at exact halves (asymmetric 2x: x_in = x_out / 2)") {
  const Tensor x = floats({1, 4}, {10, 20, 30, 40});
  auto nearest = [&](const std::string& mode) {
    const OpCall call{"Resize", 13,
                      resize_attributes({{"coordinate_transformation_mode", std::string("asymmetric")},
                                         {"nearest_mode", mode}})};
    return resize_scales(call, x, {1, 2});
  };
  // x_in = 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5; index 4 clamps to 3.
  check_floats(nearest("round_prefer_floor"), {1, 8}, {10, 10, 20, 20, 30, 30, 40, 40});
  check_floats(nearest("round_prefer_ceil"), {1, 8}, {10, 20, 20, 30, 30, 40, 40, 40});
  check_floats(nearest("floor"), {1, 8}, {10, 10, 20, 20, 30, 30, 40, 40});
  check_floats(nearest("ceil"), {1, 8}, {10, 20, 20, 30, 30, 40, 40, 40});
}

TEST_CASE("Resize nearest defaults (half_pixel, round_prefer_floor) on any dtype") {
  // 3x: x_in = (x_out + 0.5) / 3 - 0.5 = -1/3, 0, 1/3, 2/3, 1, 4/3 -> 0, 0, 0, 1, 1, 1.
  const Tensor x = int64s({1, 2}, {7, 9});
  const Tensor out = OpCall{"Resize", 13}.run_one({x, Tensor(), floats({2}, {1, 3})});
  check_int64s(out, {1, 6}, {7, 7, 7, 9, 9, 9});
  const Tensor bytes = Tensor::from_vector<std::uint8_t>({2}, {1, 2});
  const Tensor doubled = OpCall{"Resize", 13}.run_one({bytes, Tensor(), floats({1}, {2})});
  CHECK(doubled.dtype() == DType::UInt8);
  CHECK(doubled.to_int64s() == std::vector<std::int64_t>{1, 1, 2, 2});
}

TEST_CASE("Resize linear align_corners and pytorch_half_pixel") {
  const OpCall corners{"Resize", 13,
                       resize_attributes({{"mode", std::string("linear")},
                                          {"coordinate_transformation_mode", std::string("align_corners")}})};
  // x_in = x_out * (2 - 1) / (3 - 1)
  check_floats(resize_sizes(corners, floats({1, 2}, {1, 2}), {1, 3}), {1, 3}, {1, 1.5, 2});
  // With scales, ONNX's reference divides by scale * length - 1 = 1.4, not by the rounded length:
  // x_in = 1 * 3 / 1.4 = 2.142857, so the second value is 1 + 2.142857.
  check_floats(resize_scales(corners, floats({1, 4}, {1, 2, 3, 4}), {1, 0.6f}), {1, 2}, {1, 3.142857}, 1e-5);
  const OpCall pytorch{"Resize", 13,
                       resize_attributes({{"mode", std::string("linear")},
                                          {"coordinate_transformation_mode", std::string("pytorch_half_pixel")}})};
  check_floats(resize_sizes(pytorch, floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), {1, 3}), {1, 3},
               {1.1666666666666665, 2.5, 3.8333333333333335}, 1e-6);
}

TEST_CASE("Resize cubic, with and without exclude_outside") {
  const Tensor x = floats({1, 4}, {1, 2, 3, 4});
  const OpCall cubic{"Resize", 13, resize_attributes({{"mode", std::string("cubic")}})};
  check_floats(resize_scales(cubic, x, {1, 2}), {1, 8},
               {0.89453125, 1.19140625, 1.66796875, 2.296875, 2.703125, 3.33203125, 3.80859375, 4.10546875}, 1e-6);
  const OpCall excluding{"Resize", 13,
                         resize_attributes({{"mode", std::string("cubic")},
                                            {"cubic_coeff_a", -0.5f},
                                            {"exclude_outside", std::int64_t{1}}})};
  check_floats(resize_scales(excluding, x, {1, 2}), {1, 8},
               {0.9117647058823528, 1.167883211678832, 1.7099236641221374, 2.25, 2.75, 3.2900763358778624,
                3.832116788321168, 4.088235294117647},
               1e-6);
}

TEST_CASE("Resize tf_crop_and_resize samples the roi and extrapolates outside the input") {
  const OpCall crop{"Resize", 13,
                    resize_attributes({{"mode", std::string("linear")},
                                       {"coordinate_transformation_mode", std::string("tf_crop_and_resize")},
                                       {"extrapolation_value", 10.0f}})};
  const Tensor x = floats({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_floats(resize_sizes(crop, x, {3, 3}, floats({4}, {0, 0.4f, 1, 1.2f})), {3, 3},
               {2.2, 3.4, 10.0, 4.2, 5.4, 10.0, 6.2, 7.4, 10.0}, 1e-6);
}

TEST_CASE("Resize: tf_half_pixel_for_nn exists only in opset 11; bad inputs are invalid") {
  const Attributes tf_nn = resize_attributes({{"coordinate_transformation_mode", std::string("tf_half_pixel_for_nn")}});
  // x_in = (x_out + 0.5) / 0.75 for 4 -> 3: 0.67, 2, 3.33 -> rows 1, 2, 3.
  const Tensor x = floats({4, 1}, {1, 2, 3, 4});
  check_floats(OpCall{"Resize", 11, tf_nn}.run_one({x, floats({0}, {}), floats({0}, {}), int64s({3, 1})}), {3, 1},
               {2, 3, 4});
  const auto removed = thrown_error([&] { resize_sizes(OpCall{"Resize", 13, tf_nn}, x, {3, 1}); });
  REQUIRE(removed);
  CHECK(removed->code() == ErrorCode::InvalidOperator);
  const auto neither = thrown_error([&] { OpCall{"Resize", 13}.run_one({x}); });
  REQUIRE(neither);
  CHECK(neither->code() == ErrorCode::InvalidOperator);
  const auto wrong_rank = thrown_error([&] { resize_scales(OpCall{"Resize", 13}, x, {2}); });
  REQUIRE(wrong_rank);
  CHECK(wrong_rank->code() == ErrorCode::InvalidOperator);
}

// X = [[0,1],[2,3],[4,5]] sampled at 8 normalised points, some far outside.
Tensor grid_sample(const Attributes& attrs, const std::vector<float>& grid) {
  return OpCall{"GridSample", 16, attrs}.run_one({floats({1, 1, 3, 2}, {0, 1, 2, 3, 4, 5}), floats({1, 2, 4, 2}, grid)});
}

TEST_CASE("GridSample: padding modes zeros, border and reflection") {
  const std::vector<float> far{-10, -10, -5, -5, -0.2f, -0.2f, 10, 10, 10, 10, -0.2f, -0.2f, 5, 5, 10, 10};
  auto padding = [](const std::string& mode) { return attrs({{"padding_mode", mode}}); };
  check_floats(grid_sample(padding("zeros"), far), {1, 1, 2, 4}, {0, 0, 1.7, 0, 0, 1.7, 0, 0}, 1e-5);
  check_floats(grid_sample(padding("border"), far), {1, 1, 2, 4}, {0, 0, 1.7, 5, 5, 1.7, 5, 5}, 1e-5);
  check_floats(grid_sample(padding("reflection"), far), {1, 1, 2, 4}, {2.5, 0, 1.7, 2.5, 2.5, 1.7, 5, 2.5}, 1e-5);
}

TEST_CASE("GridSample: bilinear (with and without align_corners), nearest and bicubic") {
  const std::vector<float> near{-1, -1, -0.5f, -0.5f, -0.2f, -0.2f, 0, 0, 0, 0, -0.2f, -0.2f, 0.5f, 0.5f, 1, 1};
  check_floats(grid_sample({}, near), {1, 1, 2, 4}, {0, 0.5, 1.7, 2.5, 2.5, 1.7, 4.5, 1.25}, 1e-5);
  check_floats(grid_sample(attrs({{"align_corners", std::int64_t{1}}}), near), {1, 1, 2, 4},
               {0, 1.25, 2, 2.5, 2.5, 2, 3.75, 5}, 1e-5);
  check_floats(grid_sample(attrs({{"mode", std::string("nearest")}}), near), {1, 1, 2, 4},
               {0, 0, 2, 2, 2, 2, 5, 0});
  // The documentation rounds to four decimals.
  check_floats(grid_sample(attrs({{"mode", std::string("bicubic")}}), near), {1, 1, 2, 4},
               {-0.1406, 0.3828, 1.7556, 2.9688, 2.9688, 1.7556, 5.1445, 1.3906}, 0, 1e-4);
}

}  // namespace
}  // namespace asc::test
