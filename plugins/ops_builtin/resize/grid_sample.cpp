// GridSample (opset 16): samples X [N, C, H, W] at the normalised (x, y) positions of grid
// [N, H_out, W_out, 2] with modes bilinear, nearest and bicubic and padding modes zeros, border
// and reflection. ONNX's test data come from PyTorch's grid_sample, whose rules this follows:
// bilinear and nearest map the coordinate through the padding mode first; bicubic takes the
// 4x4 neighbourhood of the raw coordinate and applies the padding mode per neighbour.
#include <algorithm>
#include <array>
#include <cmath>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

enum class SampleMode { Bilinear, Nearest, Bicubic };
enum class Padding { Zeros, Border, Reflection };

struct GridSampleAttributes {
  SampleMode mode = SampleMode::Bilinear;
  Padding padding = Padding::Zeros;
  bool align_corners = false;
};

GridSampleAttributes grid_sample_attributes(const Node& node) {
  GridSampleAttributes result;
  const std::string mode = node.attributes.get_string("mode", "bilinear");
  if (mode == "bilinear") result.mode = SampleMode::Bilinear;
  else if (mode == "nearest") result.mode = SampleMode::Nearest;
  else if (mode == "bicubic") result.mode = SampleMode::Bicubic;
  else throw Error(ErrorCode::InvalidOperator, node.describe() + ": unsupported mode '" + mode + "'");
  const std::string padding = node.attributes.get_string("padding_mode", "zeros");
  if (padding == "zeros") result.padding = Padding::Zeros;
  else if (padding == "border") result.padding = Padding::Border;
  else if (padding == "reflection") result.padding = Padding::Reflection;
  else throw Error(ErrorCode::InvalidOperator, node.describe() + ": unsupported padding_mode '" + padding + "'");
  result.align_corners = node.attributes.get_int("align_corners", 0) != 0;
  return result;
}

// Normalised [-1, 1] to pixel coordinates: corner pixel centres (align_corners) or edges.
double unnormalize(double coordinate, std::int64_t size, bool align_corners) {
  const auto n = static_cast<double>(size);
  return align_corners ? (coordinate + 1) / 2 * (n - 1) : ((coordinate + 1) * n - 1) / 2;
}

// Reflects `x` into [twice_low / 2, twice_high / 2].
double reflect(double x, double twice_low, double twice_high) {
  if (twice_low == twice_high) return 0;
  const double low = twice_low / 2;
  const double span = (twice_high - twice_low) / 2;
  x = std::fabs(x - low);
  const double extra = std::fmod(x, span);
  const auto flips = static_cast<std::int64_t>(std::floor(x / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

double apply_padding(double x, std::int64_t size, const GridSampleAttributes& attributes) {
  const auto last = static_cast<double>(size - 1);
  if (attributes.padding == Padding::Border) return std::clamp(x, 0.0, last);
  if (attributes.padding == Padding::Reflection) {
    x = attributes.align_corners ? reflect(x, 0, 2 * last) : reflect(x, -1, 2 * static_cast<double>(size) - 1);
    return std::clamp(x, 0.0, last);
  }
  return x;
}

// One channel plane of X with zero outside (after padding, only zeros padding can be outside).
struct Plane {
  const double* data;
  std::int64_t height, width;

  double at(std::int64_t y, std::int64_t x) const {
    return y < 0 || y >= height || x < 0 || x >= width ? 0.0 : data[y * width + x];
  }
};

double cubic_near(double t, double a) { return ((a + 2) * t - (a + 3)) * t * t + 1; }
double cubic_far(double t, double a) { return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a; }

std::array<double, 4> cubic_weights(double t) {
  constexpr double a = -0.75;
  return {cubic_far(t + 1, a), cubic_near(t, a), cubic_near(1 - t, a), cubic_far(2 - t, a)};
}

double sample(const Plane& plane, double gx, double gy, const GridSampleAttributes& attributes) {
  const double x = unnormalize(gx, plane.width, attributes.align_corners);
  const double y = unnormalize(gy, plane.height, attributes.align_corners);
  if (attributes.mode == SampleMode::Bicubic) {
    const double x0 = std::floor(x);
    const double y0 = std::floor(y);
    const auto wx = cubic_weights(x - x0);
    const auto wy = cubic_weights(y - y0);
    double sum = 0;
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        // Neighbours are integral: padding maps them to integral (or out-of-range) pixels.
        const double px = apply_padding(x0 - 1 + i, plane.width, attributes);
        const double py = apply_padding(y0 - 1 + j, plane.height, attributes);
        sum += wx[static_cast<std::size_t>(i)] * wy[static_cast<std::size_t>(j)] *
               plane.at(static_cast<std::int64_t>(py), static_cast<std::int64_t>(px));
      }
    return sum;
  }
  const double px = apply_padding(x, plane.width, attributes);
  const double py = apply_padding(y, plane.height, attributes);
  if (attributes.mode == SampleMode::Nearest)
    return plane.at(static_cast<std::int64_t>(std::nearbyint(py)), static_cast<std::int64_t>(std::nearbyint(px)));
  const double x0 = std::floor(px);
  const double y0 = std::floor(py);
  const double tx = px - x0;
  const double ty = py - y0;
  const auto ix = static_cast<std::int64_t>(x0);
  const auto iy = static_cast<std::int64_t>(y0);
  return (1 - ty) * ((1 - tx) * plane.at(iy, ix) + tx * plane.at(iy, ix + 1)) +
         ty * ((1 - tx) * plane.at(iy + 1, ix) + tx * plane.at(iy + 1, ix + 1));
}

void infer_grid_sample(InferenceContext& context) {
  const auto x = input_dims(context, 0);
  const auto grid = input_dims(context, 1);
  Dims out = unknown_dims(4);
  if (x && x->size() == 4) {
    out[0] = (*x)[0];
    out[1] = (*x)[1];
  }
  if (grid && grid->size() == 4) {
    out[2] = (*grid)[1];
    out[3] = (*grid)[2];
  }
  set_output(context, 0, context.input(0).dtype, std::move(out));
}

void compute_grid_sample(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x = context.input(0);
  const Tensor& grid = context.input(1);
  const Shape& xs = x.shape();
  const Shape& gs = grid.shape();
  if (xs.size() != 4 || gs.size() != 4 || gs[0] != xs[0] || gs[3] != 2)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": needs X [N,C,H,W] and grid [N,H_out,W_out,2], got " +
                                                shape_to_string(xs) + " and " + shape_to_string(gs));
  if (!is_floating(x.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": input type " + std::string(dtype_name(x.dtype())) + " (need a floating type)");
  const GridSampleAttributes attributes = grid_sample_attributes(node);
  const std::vector<double> input = x.to_doubles();
  const std::vector<double> positions = grid.to_doubles();
  const std::int64_t n = xs[0], channels = xs[1], height = xs[2], width = xs[3];
  const std::int64_t points = gs[1] * gs[2];
  std::vector<double> out(static_cast<std::size_t>(n * channels * points));
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t c = 0; c < channels; ++c) {
      const Plane plane{input.data() + (b * channels + c) * height * width, height, width};
      for (std::int64_t p = 0; p < points; ++p) {
        const double* g = positions.data() + (b * points + p) * 2;
        out[static_cast<std::size_t>((b * channels + c) * points + p)] = sample(plane, g[0], g[1], attributes);
      }
    }
  context.outputs[0] = Tensor::from_vector<double>({n, channels, gs[1], gs[2]}, out).cast(x.dtype());
}

// Per output element: 4 taps (bilinear) or 16 (bicubic), a multiply-add each.
CostFacts grid_sample_cost(const CostContext& context) {
  const std::string mode = context.node.attributes.get_string("mode", "bilinear");
  const double taps = mode == "bicubic" ? 16 : mode == "nearest" ? 0 : 4;
  return elementwise_cost(context, 2 * taps);
}

}  // namespace

ASC_REGISTER_OP("", "GridSample", 16, 17, infer_grid_sample, compute_grid_sample, grid_sample_cost);

}  // namespace asc::ops
