// RoiAlign: bilinear samples averaged (or max-pooled) over each output bin of each region of
// interest. Opset 16 added coordinate_transformation_mode (default half_pixel); before it the
// behaviour is output_half_pixel. Sampling follows the Mask R-CNN reference (and onnxruntime):
// samples outside [-1, size] count as 0, and max mode takes the largest weighted corner.
#include <algorithm>
#include <cmath>
#include <string>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>

namespace asc::ops {
namespace {

struct RoiAlignParams {
  bool max_mode;
  bool half_pixel;
  std::int64_t out_h, out_w, sampling_ratio;
  double spatial_scale;
};

RoiAlignParams params_of(const Node& node, std::int64_t opset) {
  const auto& a = node.attributes;
  RoiAlignParams p{};
  const std::string mode = a.get_string("mode", "avg");
  if (mode != "avg" && mode != "max")
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": mode '" + mode + "' is not avg or max");
  p.max_mode = mode == "max";
  const std::string transform = opset >= 16 ? a.get_string("coordinate_transformation_mode", "half_pixel") : "output_half_pixel";
  if (transform != "half_pixel" && transform != "output_half_pixel")
    throw Error(ErrorCode::InvalidOperator,
                node.describe() + ": coordinate_transformation_mode '" + transform + "' is not half_pixel or output_half_pixel");
  p.half_pixel = transform == "half_pixel";
  p.out_h = a.get_int("output_height", 1);
  p.out_w = a.get_int("output_width", 1);
  p.sampling_ratio = a.get_int("sampling_ratio", 0);
  p.spatial_scale = a.get_float("spatial_scale", 1.0f);
  if (p.out_h <= 0 || p.out_w <= 0 || p.sampling_ratio < 0)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": output size must be positive and sampling_ratio >= 0");
  return p;
}

// The four neighbours of a sample point and their bilinear weights (all zero outside the map).
struct Sample {
  std::int64_t offsets[4] = {0, 0, 0, 0};
  double weights[4] = {0, 0, 0, 0};
};

Sample sample_at(double y, double x, std::int64_t height, std::int64_t width) {
  Sample s;
  if (y < -1.0 || y > static_cast<double>(height) || x < -1.0 || x > static_cast<double>(width)) return s;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  auto y_low = static_cast<std::int64_t>(y), x_low = static_cast<std::int64_t>(x);
  std::int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_low = y_high = height - 1;
    y = static_cast<double>(y_low);
  }
  if (x_low >= width - 1) {
    x_low = x_high = width - 1;
    x = static_cast<double>(x_low);
  }
  const double ly = y - static_cast<double>(y_low), lx = x - static_cast<double>(x_low);
  const double hy = 1.0 - ly, hx = 1.0 - lx;
  s.offsets[0] = y_low * width + x_low;
  s.offsets[1] = y_low * width + x_high;
  s.offsets[2] = y_high * width + x_low;
  s.offsets[3] = y_high * width + x_high;
  s.weights[0] = hy * hx;
  s.weights[1] = hy * lx;
  s.weights[2] = ly * hx;
  s.weights[3] = ly * lx;
  return s;
}

void roi_align_infer(InferenceContext& context) {
  const ValueInfo& x = context.input(0);
  const RoiAlignParams p = params_of(context.node, context.opset);
  context.outputs[0].dtype = x.dtype;
  Dim rois, channels;
  if (context.input(1).shape && !context.input(1).shape->empty()) rois = context.input(1).shape->front();
  if (x.shape && x.shape->size() == 4) channels = (*x.shape)[1];
  context.outputs[0].shape = std::vector<Dim>{rois, channels, Dim(p.out_h), Dim(p.out_w)};
}

void roi_align_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& x = context.input(0);
  const Tensor& rois_tensor = context.input(1);
  const Tensor& batch_tensor = context.input(2);
  if (!is_floating(x.dtype()))
    throw Error(ErrorCode::OperatorDtypeUnsupported, node.describe() + ": RoiAlign does not support " +
                                                         std::string(dtype_name(x.dtype())));
  if (x.rank() != 4 || rois_tensor.rank() != 2 || rois_tensor.shape()[1] != 4 || batch_tensor.rank() != 1 ||
      batch_tensor.shape()[0] != rois_tensor.shape()[0])
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": expects X [N,C,H,W], rois [R,4], batch_indices [R]; got " +
                                                shape_to_string(x.shape()) + ", " + shape_to_string(rois_tensor.shape()) +
                                                ", " + shape_to_string(batch_tensor.shape()));
  const RoiAlignParams p = params_of(node, context.opset);
  const std::int64_t n = x.shape()[0], channels = x.shape()[1], height = x.shape()[2], width = x.shape()[3];
  const std::int64_t roi_count = rois_tensor.shape()[0];
  const std::vector<double> input = x.to_doubles();
  const std::vector<double> rois = rois_tensor.to_doubles();
  const std::vector<std::int64_t> batch_indices = batch_tensor.to_int64s();
  std::vector<double> output(static_cast<std::size_t>(roi_count * channels * p.out_h * p.out_w), 0.0);
  const double offset = p.half_pixel ? 0.5 : 0.0;

  std::vector<Sample> samples;
  for (std::int64_t r = 0; r < roi_count; ++r) {
    const std::int64_t batch = batch_indices[static_cast<std::size_t>(r)];
    if (batch < 0 || batch >= n)
      throw Error(ErrorCode::InvalidOperator, node.describe() + ": batch index " + std::to_string(batch) +
                                                  " is out of range for " + std::to_string(n) + " images");
    const double* roi = rois.data() + r * 4;
    const double start_w = roi[0] * p.spatial_scale - offset, start_h = roi[1] * p.spatial_scale - offset;
    double roi_w = roi[2] * p.spatial_scale - offset - start_w, roi_h = roi[3] * p.spatial_scale - offset - start_h;
    if (!p.half_pixel) {  // the legacy mode forces regions to at least 1x1
      roi_w = std::max(roi_w, 1.0);
      roi_h = std::max(roi_h, 1.0);
    }
    const double bin_h = roi_h / static_cast<double>(p.out_h), bin_w = roi_w / static_cast<double>(p.out_w);
    const auto grid_h = p.sampling_ratio > 0 ? p.sampling_ratio : static_cast<std::int64_t>(std::ceil(roi_h / static_cast<double>(p.out_h)));
    const auto grid_w = p.sampling_ratio > 0 ? p.sampling_ratio : static_cast<std::int64_t>(std::ceil(roi_w / static_cast<double>(p.out_w)));
    const double count = static_cast<double>(std::max<std::int64_t>(grid_h * grid_w, 1));

    // The sample points are the same for every channel.
    samples.clear();
    for (std::int64_t ph = 0; ph < p.out_h; ++ph)
      for (std::int64_t pw = 0; pw < p.out_w; ++pw)
        for (std::int64_t iy = 0; iy < grid_h; ++iy)
          for (std::int64_t ix = 0; ix < grid_w; ++ix)
            samples.push_back(sample_at(
                start_h + static_cast<double>(ph) * bin_h + (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h),
                start_w + static_cast<double>(pw) * bin_w + (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w),
                height, width));

    const std::size_t per_bin = static_cast<std::size_t>(grid_h * grid_w);
    for (std::int64_t c = 0; c < channels; ++c) {
      const double* plane = input.data() + (batch * channels + c) * height * width;
      double* out = output.data() + (r * channels + c) * p.out_h * p.out_w;
      for (std::int64_t bin = 0; bin < p.out_h * p.out_w; ++bin) {
        double value = 0.0;
        for (std::size_t s = 0; s < per_bin; ++s) {
          const Sample& sample = samples[static_cast<std::size_t>(bin) * per_bin + s];
          if (p.max_mode) {
            for (int corner = 0; corner < 4; ++corner) {
              const double v = sample.weights[corner] * plane[sample.offsets[corner]];
              value = s == 0 && corner == 0 ? v : std::max(value, v);
            }
          } else {
            for (int corner = 0; corner < 4; ++corner) value += sample.weights[corner] * plane[sample.offsets[corner]];
          }
        }
        out[bin] = p.max_mode ? value : value / count;
      }
    }
  }
  context.outputs[0] = Tensor::from_vector(Shape{roi_count, channels, p.out_h, p.out_w}, output).cast(x.dtype());
}

// Per output element: a 2x2 sample grid (the adaptive grid depends on the ROI values) of four
// multiply-adds each.
CostFacts roi_align_cost(const CostContext& context) {
  return elementwise_cost(context, 2.0 * 2.0 * 4.0 * 2.0);
}

}  // namespace

ASC_REGISTER_OP("", "RoiAlign", 11, 17, roi_align_infer, roi_align_compute, roi_align_cost);

}  // namespace asc::ops
