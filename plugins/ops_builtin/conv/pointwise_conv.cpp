#include "conv/pointwise_conv.hpp"

#include <algorithm>

#include <asc/sdk/parallel.hpp>

#include "common/uninitialized_tensor.hpp"
#include "conv/conv_common.hpp"

namespace asc::ops {
namespace {

using detail::kPointwisePanel;

// Where oneDNN's brgconv_1x1 stays (BENCHMARKS.md, session 16, 2 threads): images of more than
// 56x56 output pixels, and layers of fewer than 128 input channels at more than 28x28. ResNet-50's
// 56x56 layers of 64 input channels took 1.3-1.4x oneDNN's time with this kernel at batch 8 (they
// write 25 MB to memory, at a rate oneDNN sustains better) and were level at batch 1. But where
// this kernel folds an addend or the rounding to fp16 into its stores, oneDNN needs a pass over
// each piece for them, and layers of 64 input channels are faster here (session 19). The rule is
// per image and per node, not per batch, so that an image's outputs do not depend on the batch it
// is in.
constexpr std::int64_t kLeastInputChannels = 128;
constexpr std::int64_t kLeastInputChannelsFolding = 64;
constexpr std::int64_t kMostSmallInputPixels = 28 * 28;
constexpr std::int64_t kMostImagePixels = 56 * 56;

// The most weights a thread's items sweep over many pixels: half of a 2 MB L2, the rest for the
// pixels' input and output. ResNet-50 b8's two 14x14 layers with 2 MB of weights (512 -> 1024,
// 1024 -> 512) took 5.7 and 5.0 ms with all panels per item, 4.9 and 4.7 in two groups; 512 KB
// (four groups) measured the same as 1 MB (session 19).
constexpr std::int64_t kMostL2WeightBytes = std::int64_t{1} << 20;

bool cpu_has_avx512f() {
#if defined(ASC_POINTWISE_AVX512)
  static const bool has = __builtin_cpu_supports("avx512f") != 0;
  return has;
#else
  return false;
#endif
}

}  // namespace

bool pointwise_conv_suits(const ConvGeometry& g, bool folds_addend_or_rounding) {
  const Window3& w = g.window;
  const std::int64_t least_channels = folds_addend_or_rounding ? kLeastInputChannelsFolding : kLeastInputChannels;
  return g.group == 1 && w.kernel[1] == 1 && w.kernel[2] == 1 && w.pad_begin[1] == 0 && w.pad_begin[2] == 0 &&
         w.output[1] * w.output[2] <= kMostImagePixels &&
         (g.in_channels >= least_channels || w.output[1] * w.output[2] <= kMostSmallInputPixels) &&
         (w.output[1] - 1) * w.stride[1] < w.input[1] && (w.output[2] - 1) * w.stride[2] < w.input[2] &&
         cpu_has_avx512f();
}

PointwiseWeights pack_pointwise_weights(const ConvGeometry& g, const Tensor& weights) {
  PointwiseWeights packed;
  packed.in_channels = g.in_channels;
  packed.out_channels = g.out_channels;
  packed.panels = (g.out_channels + kPointwisePanel - 1) / kPointwisePanel;
  const auto count = static_cast<std::size_t>(packed.panels * g.in_channels * kPointwisePanel);
  const Tensor panels(DType::Float32, {static_cast<std::int64_t>(count)});  // zeros past M
  float* data = panels.data<float>();
  packed.panel_data = std::shared_ptr<float[]>(panels.buffer(), data);
  const Tensor plain = weights.contiguous();  // [M, C, 1, 1]
  const float* w = plain.data<float>();
  for (std::int64_t m = 0; m < g.out_channels; ++m)
    for (std::int64_t c = 0; c < g.in_channels; ++c)
      data[(m / kPointwisePanel * g.in_channels + c) * kPointwisePanel + m % kPointwisePanel] =
          w[m * g.in_channels + c];
  return packed;
}

bool pointwise_conv_folds(const OutputEpilogue* epilogue, const OutputEpilogueSteps* steps, const Shape& y_shape,
                          const Shape& y_strides) {
  return epilogue != nullptr && steps != nullptr && steps->foldable_into(y_shape, y_strides) &&
         (steps->addend != nullptr || steps->round_to_f16);
}

Tensor pointwise_conv(const ConvGeometry& g, const Tensor& x, const PointwiseWeights& weights,
                      const float* bias, int threads, const OutputEpilogue* epilogue,
                      const OutputEpilogueSteps* steps) {
  const Window3& w = g.window;
  const Shape y_shape = conv_output_shape(g, 2);
  const Shape y_strides = channels_last_strides(y_shape);
  const bool fold = epilogue != nullptr && steps != nullptr && steps->foldable_into(y_shape, y_strides);
  // Computed in place over the addend where the caller gives it up: one stream fewer to memory,
  // as each tile reads its addend where it stores its sums.
  Tensor y = fold && steps->addend != nullptr && steps->addend_reusable
                 ? *steps->addend
                 : uninitialized_tensor(DType::Float32, y_shape, y_strides);
  detail::PointwiseJob job;
  job.x = x.data<float>();
  job.weights = &weights;
  job.bias = bias;
  job.y = y.data<float>();
  job.in_rows = w.input[1];
  job.in_cols = w.input[2];
  job.out_rows = w.output[1];
  job.out_cols = w.output[2];
  job.stride_h = w.stride[1];
  job.stride_w = w.stride[2];
  // The steps folded into the tiles' stores: the ranges then get only what follows them.
  if (fold) {
    job.addend = steps->addend != nullptr ? steps->addend->data<float>() : nullptr;
    job.activation = steps->activation;
    job.low = steps->low;
    job.high = steps->high;
    job.round_to_f16 = steps->round_to_f16;
    epilogue = steps->then ? &steps->then : nullptr;
  }
  // Work items. Where the weights are the larger read (more output channels than pixels: the
  // deep layers at batch 1, whose weights come from memory at every run), each thread's item is a
  // group of panels over all the pixels, so that every panel is read from memory once, the next
  // one while the kernel computes on the last. Elsewhere each item is four tiles of pixels
  // over all the panels, which stay in L2, and whose output stays in L1 for the epilogue; where
  // that makes fewer than four items a thread, the panels are shared out too, and where all the
  // panels would not stay in L2 (over kMostL2WeightBytes), the items run a group of panels that
  // does over all the pixels, then the next group.
  const std::int64_t pixels = g.batch * w.output[1] * w.output[2];
  const std::int64_t wanted = 4 * std::max(threads, 1);
  std::int64_t item_pixels = pixels,
               panel_groups = std::min(weights.panels, std::int64_t{std::max(threads, 1)});
  if (g.out_channels <= pixels) {
    item_pixels = detail::pointwise_item_pixels(g.window.stride[1] == 1 && g.window.stride[2] == 1);
    const std::int64_t pixel_items = (pixels + item_pixels - 1) / item_pixels;
    const std::int64_t weight_bytes =
        weights.panels * weights.in_channels * kPointwisePanel * std::int64_t{sizeof(float)};
    panel_groups = std::min(weights.panels, std::max((weight_bytes + kMostL2WeightBytes - 1) / kMostL2WeightBytes,
                                                     threads > 1 && pixel_items < wanted
                                                         ? (wanted + pixel_items - 1) / pixel_items
                                                         : std::int64_t{1}));
  }
  const std::int64_t pixel_items = (pixels + item_pixels - 1) / item_pixels;
  const std::int64_t channels = g.out_channels;
  parallel_for(threads, pixel_items * panel_groups, [&](std::int64_t item) {
    const std::int64_t pixel_begin = item % pixel_items * item_pixels;
    const std::int64_t pixel_end = std::min(pixels, pixel_begin + item_pixels);
    const std::int64_t group = item / pixel_items;
    const std::int64_t panel_begin = weights.panels * group / panel_groups;
    const std::int64_t panel_end = weights.panels * (group + 1) / panel_groups;
    if (epilogue != nullptr && panel_groups == 1 && item_pixels < pixels) {
      // Each tile's pixels, all channels, while they are in L1: an item's are up to 96 KB.
      const std::function<void(std::int64_t, std::int64_t)> tile_done = [&](std::int64_t first, std::int64_t end) {
        (*epilogue)(y, first * channels, end * channels);
      };
      detail::pointwise_tiles_avx512(job, pixel_begin, pixel_end, panel_begin, panel_end, &tile_done);
      return;
    }
    detail::pointwise_tiles_avx512(job, pixel_begin, pixel_end, panel_begin, panel_end, nullptr);
    if (epilogue == nullptr) return;
    if (panel_groups == 1) {
      (*epilogue)(y, pixel_begin * channels, pixel_end * channels);
      return;
    }
    const std::int64_t first = panel_begin * kPointwisePanel,
                       last = std::min(channels, panel_end * kPointwisePanel);
    for (std::int64_t p = pixel_begin; p < pixel_end; ++p)
      (*epilogue)(y, p * channels + first, p * channels + last);
  });
  return y;
}

}  // namespace asc::ops
