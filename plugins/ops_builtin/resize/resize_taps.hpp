// Resize's per-axis sampling plan: for every output coordinate along one axis, the input
// indices and weights it interpolates (or "outside" for tf_crop_and_resize's extrapolation).
// N-D Resize is separable, so the kernel applies one plan per axis.
//
// The rules follow ONNX's reference implementation (onnx/backend/test/case/node/resize.py),
// which generated the conformance data: coordinates are transformed in double precision, the
// neighbours of x are the n nearest indices preferring lower ones (so the fractional part lies
// in (0, 1]), indices past the edges repeat the edge value, and exclude_outside drops them and
// renormalises the weights instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <asc/sdk/graph.hpp>

namespace asc::ops {

enum class ResizeMode { Nearest, Linear, Cubic };
enum class NearestMode { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };
enum class CoordinateMode { HalfPixel, PytorchHalfPixel, AlignCorners, Asymmetric, TfHalfPixelForNn, TfCropAndResize };

struct ResizeAttributes {
  ResizeMode mode = ResizeMode::Nearest;
  NearestMode nearest_mode = NearestMode::RoundPreferFloor;
  CoordinateMode coordinates = CoordinateMode::HalfPixel;
  double cubic_coeff_a = -0.75;
  bool exclude_outside = false;
  double extrapolation_value = 0.0;
};

// Reads and validates the attributes (tf_half_pixel_for_nn exists only in opset 11).
ResizeAttributes resize_attributes(const Node& node, std::int64_t opset);

struct Tap {
  std::int64_t index;
  double weight;
};

struct AxisPlan {
  std::vector<std::vector<Tap>> taps;  // per output coordinate; zero weights dropped
  std::vector<bool> outside;           // per output coordinate: use the extrapolation value
  // Every output coordinate copies the input coordinate of the same number.
  bool is_identity() const;
};

// `scale` is output/input as ONNX's reference uses it (the scales input, or sizes/input when
// sizes are given); roi_start/roi_end matter for tf_crop_and_resize only.
AxisPlan plan_axis(std::int64_t input_length, std::int64_t output_length, double scale, double roi_start,
                   double roi_end, const ResizeAttributes& attributes);

}  // namespace asc::ops
