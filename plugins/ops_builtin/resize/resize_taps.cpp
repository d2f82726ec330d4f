#include "resize/resize_taps.hpp"

#include <algorithm>
#include <cmath>

#include <asc/sdk/error.hpp>

namespace asc::ops {
namespace {

[[noreturn]] void invalid(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

ResizeMode parse_mode(const Node& node) {
  const std::string mode = node.attributes.get_string("mode", "nearest");
  if (mode == "nearest") return ResizeMode::Nearest;
  if (mode == "linear") return ResizeMode::Linear;
  if (mode == "cubic") return ResizeMode::Cubic;
  invalid(node, "unsupported mode '" + mode + "'");
}

NearestMode parse_nearest_mode(const Node& node) {
  const std::string mode = node.attributes.get_string("nearest_mode", "round_prefer_floor");
  if (mode == "round_prefer_floor") return NearestMode::RoundPreferFloor;
  if (mode == "round_prefer_ceil") return NearestMode::RoundPreferCeil;
  if (mode == "floor") return NearestMode::Floor;
  if (mode == "ceil") return NearestMode::Ceil;
  invalid(node, "unsupported nearest_mode '" + mode + "'");
}

CoordinateMode parse_coordinate_mode(const Node& node, std::int64_t opset) {
  const std::string mode = node.attributes.get_string("coordinate_transformation_mode", "half_pixel");
  if (mode == "half_pixel") return CoordinateMode::HalfPixel;
  if (mode == "pytorch_half_pixel") return CoordinateMode::PytorchHalfPixel;
  if (mode == "align_corners") return CoordinateMode::AlignCorners;
  if (mode == "asymmetric") return CoordinateMode::Asymmetric;
  if (mode == "tf_crop_and_resize") return CoordinateMode::TfCropAndResize;
  if (mode == "tf_half_pixel_for_nn" && opset < 13) return CoordinateMode::TfHalfPixelForNn;
  invalid(node, "unsupported coordinate_transformation_mode '" + mode + "' in opset " + std::to_string(opset));
}

// x in input coordinates for output coordinate `x_out`. `output_width` is scale * input length
// (not the rounded output length), as in ONNX's reference.
double resize_taps_source_coordinate(double x_out, double scale, double input_length, double roi_start,
                                     double roi_end, CoordinateMode mode) {
  const double output_width = scale * input_length;
  switch (mode) {
    case CoordinateMode::HalfPixel: return (x_out + 0.5) / scale - 0.5;
    case CoordinateMode::PytorchHalfPixel: return output_width == 1 ? -0.5 : (x_out + 0.5) / scale - 0.5;
    case CoordinateMode::AlignCorners: return output_width == 1 ? 0.0 : x_out * (input_length - 1) / (output_width - 1);
    case CoordinateMode::Asymmetric: return x_out / scale;
    case CoordinateMode::TfHalfPixelForNn: return (x_out + 0.5) / scale;
    case CoordinateMode::TfCropAndResize: {
      const double span = (roi_end - roi_start) * (input_length - 1);
      const double offset = roi_start * (input_length - 1);
      return output_width == 1 ? span / 2 + offset : x_out * span / (output_width - 1) + offset;
    }
  }
  return 0.0;
}

// Weights of the neighbours base, base+1 (nearest, linear) or base-1 .. base+2 (cubic), with
// `ratio` = x - base in (0, 1].
std::vector<double> coefficients(double ratio, bool integral, const ResizeAttributes& attributes) {
  switch (attributes.mode) {
    case ResizeMode::Nearest:
      if (integral) return {0, 1};
      switch (attributes.nearest_mode) {
        case NearestMode::RoundPreferFloor: return {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};
        case NearestMode::RoundPreferCeil: return {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
        case NearestMode::Floor: return {1, 0};
        case NearestMode::Ceil: return {0, 1};
      }
      break;
    case ResizeMode::Linear: return {1 - ratio, ratio};
    case ResizeMode::Cubic: {
      const double a = attributes.cubic_coeff_a;
      const double r = ratio;
      const double s = 1 - ratio;
      return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
              ((a + 2) * s - (a + 3)) * s * s + 1, ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
    }
  }
  return {};
}

}  // namespace

ResizeAttributes resize_attributes(const Node& node, std::int64_t opset) {
  ResizeAttributes attributes;
  attributes.mode = parse_mode(node);
  attributes.nearest_mode = parse_nearest_mode(node);
  attributes.coordinates = parse_coordinate_mode(node, opset);
  attributes.cubic_coeff_a = node.attributes.get_float("cubic_coeff_a", -0.75f);
  attributes.exclude_outside = node.attributes.get_int("exclude_outside", 0) != 0;
  attributes.extrapolation_value = node.attributes.get_float("extrapolation_value", 0.0f);
  return attributes;
}

bool AxisPlan::is_identity() const {
  for (std::size_t x = 0; x < taps.size(); ++x)
    if (outside[x] || taps[x].size() != 1 || taps[x][0].index != static_cast<std::int64_t>(x) || taps[x][0].weight != 1.0)
      return false;
  return true;
}

AxisPlan plan_axis(std::int64_t input_length, std::int64_t output_length, double scale, double roi_start,
                   double roi_end, const ResizeAttributes& attributes) {
  AxisPlan plan;
  plan.taps.resize(static_cast<std::size_t>(output_length));
  plan.outside.assign(static_cast<std::size_t>(output_length), false);
  const auto length = static_cast<double>(input_length);
  for (std::int64_t x_out = 0; x_out < output_length; ++x_out) {
    const double x = resize_taps_source_coordinate(static_cast<double>(x_out), scale, length, roi_start,
                                                   roi_end, attributes.coordinates);
    if (attributes.coordinates == CoordinateMode::TfCropAndResize && (x < 0 || x > length - 1)) {
      plan.outside[static_cast<std::size_t>(x_out)] = true;
      continue;
    }
    const double floor_x = std::floor(x);
    const bool integral = floor_x == x;
    const double ratio = integral ? 1.0 : x - floor_x;
    const auto base = static_cast<std::int64_t>(integral ? x - 1 : floor_x);
    std::vector<double> weights = coefficients(ratio, integral, attributes);
    const std::int64_t first = weights.size() == 4 ? base - 1 : base;
    std::vector<Tap> taps;
    double kept = 0;
    for (std::size_t k = 0; k < weights.size(); ++k) {
      const std::int64_t index = first + static_cast<std::int64_t>(k);
      const bool inside = index >= 0 && index < input_length;
      if (attributes.exclude_outside && !inside) continue;
      kept += weights[k];
      taps.push_back({std::clamp<std::int64_t>(index, 0, input_length - 1), weights[k]});
    }
    auto& out = plan.taps[static_cast<std::size_t>(x_out)];
    for (Tap tap : taps) {
      if (attributes.exclude_outside) tap.weight /= kept;
      if (tap.weight != 0) out.push_back(tap);
    }
  }
  return plan;
}

}  // namespace asc::ops
