// NonMaxSuppression and RoiAlign with expectations worked out by hand.
#include <doctest/doctest.h>

#include "op_testing.hpp"
#include "tensor_checks.hpp"

namespace asc::test {
namespace {

Tensor scalar_i64(std::int64_t v) { return Tensor::from_vector<std::int64_t>({1}, {v}); }
Tensor scalar_f32(float v) { return Tensor::from_vector<float>({1}, {v}); }

// Six unit boxes centred at y = 0.5, 0.6, 0.4, 10.5, 10.6, 100.5 (x = 0.5), as [x_c, y_c, w, h].
Tensor center_boxes() {
  return Tensor::from_vector<float>({1, 6, 4}, {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 0.4f, 1, 1,
                                                0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1});
}
// The same boxes as corners [y1, x1, y2, x2].
Tensor corner_boxes() {
  return Tensor::from_vector<float>({1, 6, 4}, {0, 0, 1, 1, 0.1f, 0, 1.1f, 1, -0.1f, 0, 0.9f, 1,
                                                10, 0, 11, 1, 10.1f, 0, 11.1f, 1, 100, 0, 101, 1});
}
Tensor scores() { return Tensor::from_vector<float>({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f}); }

// By score: box 3 (0.95) kept; box 0 (0.9) does not touch it, kept; boxes 1 and 2 overlap box 0
// with IoU 0.9/1.1 > 0.5, suppressed; box 4 overlaps box 3 likewise; box 5 is kept third.
TEST_CASE("NonMaxSuppression with center_point_box (ONNX documentation example)") {
  const Tensor selected = run_one("NonMaxSuppression", 11,
                                  {center_boxes(), scores(), scalar_i64(3), scalar_f32(0.5f), scalar_f32(0.0f)},
                                  attrs({{"center_point_box", std::int64_t{1}}}));
  CHECK(selected.dtype() == DType::Int64);
  CHECK(selected.shape() == Shape{3, 3});
  CHECK(selected.to_int64s() == std::vector<std::int64_t>{0, 0, 3, 0, 0, 0, 0, 0, 5});
}

TEST_CASE("NonMaxSuppression with corners, limits and thresholds") {
  const Tensor iou = scalar_f32(0.5f);
  // At most two per class.
  CHECK(run_one("NonMaxSuppression", 11, {corner_boxes(), scores(), scalar_i64(2), iou}).to_int64s() ==
        std::vector<std::int64_t>{0, 0, 3, 0, 0, 0});
  // Score threshold 0.4 drops box 5 (0.3).
  CHECK(run_one("NonMaxSuppression", 11, {corner_boxes(), scores(), scalar_i64(10), iou, scalar_f32(0.4f)}).to_int64s() ==
        std::vector<std::int64_t>{0, 0, 3, 0, 0, 0});
  // Without max_output_boxes_per_class nothing is selected.
  CHECK(run_one("NonMaxSuppression", 11, {corner_boxes(), scores()}).shape() == Shape{0, 3});
}

TEST_CASE("NonMaxSuppression orders by batch, then class") {
  const Tensor boxes = Tensor::from_vector<float>({2, 2, 4}, {0, 0, 1, 1, 0, 0, 1, 1,  //
                                                              0, 0, 1, 1, 5, 5, 6, 6});
  // Scores [batch, class, box]: class 1 prefers box 1.
  const Tensor two_classes = Tensor::from_vector<float>({2, 2, 2}, {0.9f, 0.8f, 0.1f, 0.7f,  //
                                                                    0.2f, 0.6f, 0.5f, 0.4f});
  const Tensor selected = run_one("NonMaxSuppression", 11, {boxes, two_classes, scalar_i64(5), scalar_f32(0.5f)});
  // Batch 0: identical boxes, one survives per class. Batch 1: disjoint boxes, both survive.
  CHECK(selected.to_int64s() == std::vector<std::int64_t>{0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1});
  const auto out = infer_op("NonMaxSuppression", 11,
                            {ValueInfo::from_shape("b", DType::Float32, {2, 2, 4}),
                             ValueInfo::from_shape("s", DType::Float32, {2, 2, 2})});
  CHECK(out[0].dtype == DType::Int64);
  CHECK((*out[0].shape)[1] == Dim(3));
  CHECK(thrown_code([&] { run_one("NonMaxSuppression", 11, {boxes, scores(), scalar_i64(1)}); }) ==
        ErrorCode::InvalidOperator);
}

// X = [[1,2],[3,4]]: bilinear interpolation gives f(y, x) = 1 + x + 2y inside the map.
Tensor image() { return Tensor::from_vector<float>({1, 1, 2, 2}, {1, 2, 3, 4}); }
Tensor roi() { return Tensor::from_vector<float>({1, 4}, {0, 0, 1, 1}); }
Tensor batch0() { return Tensor::from_vector<std::int64_t>({1}, {0}); }

TEST_CASE("RoiAlign average: output_half_pixel before opset 16, half_pixel from 16") {
  const Attributes one_sample = attrs({{"sampling_ratio", std::int64_t{1}}});
  // The single bin [0,1]x[0,1] is sampled at its centre (0.5, 0.5).
  check_close(run_one("RoiAlign", 11, {image(), roi(), batch0()}, one_sample), {1, 1, 1, 1}, {2.5});
  // half_pixel shifts the ROI by -0.5: the sample lands on (0, 0).
  check_close(run_one("RoiAlign", 16, {image(), roi(), batch0()}, one_sample), {1, 1, 1, 1}, {1.0});
  check_close(run_one("RoiAlign", 16, {image(), roi(), batch0()},
                      attrs({{"sampling_ratio", std::int64_t{1}},
                             {"coordinate_transformation_mode", std::string("output_half_pixel")}})),
              {1, 1, 1, 1}, {2.5});
  // 2x2 bins of 0.5, sampled at 0.25 and 0.75.
  check_close(run_one("RoiAlign", 11, {image(), roi(), batch0()},
                      attrs({{"sampling_ratio", std::int64_t{1}}, {"output_height", std::int64_t{2}},
                             {"output_width", std::int64_t{2}}})),
              {1, 1, 2, 2}, {1.75, 2.25, 2.75, 3.25});
  // Two samples per axis in one bin: the mean of f at 0.25 and 0.75 in both axes.
  check_close(run_one("RoiAlign", 11, {image(), roi(), batch0()}, attrs({{"sampling_ratio", std::int64_t{2}}})),
              {1, 1, 1, 1}, {2.5});
}

TEST_CASE("RoiAlign errors and inference") {
  CHECK(thrown_code([] {
          run_one("RoiAlign", 16, {image(), roi(), Tensor::from_vector<std::int64_t>({1}, {1})});
        }) == ErrorCode::InvalidOperator);
  CHECK(thrown_code([] { run_one("RoiAlign", 16, {image(), roi(), batch0()}, attrs({{"mode", std::string("sum")}})); }) ==
        ErrorCode::InvalidOperator);
  const auto out = infer_op("RoiAlign", 16,
                            {ValueInfo::from_shape("x", DType::Float32, {1, 8, 16, 16}),
                             ValueInfo{"rois", DType::Float32, std::vector<Dim>{Dim::symbolic("r"), 4}},
                             ValueInfo{"b", DType::Int64, std::vector<Dim>{Dim::symbolic("r")}}},
                            attrs({{"output_height", std::int64_t{7}}, {"output_width", std::int64_t{7}}}));
  CHECK(*out[0].shape == std::vector<Dim>{Dim::symbolic("r"), 8, 7, 7});
}

}  // namespace
}  // namespace asc::test
