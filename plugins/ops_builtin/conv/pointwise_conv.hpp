// 1x1 convolutions without padding or groups on channels-last float32 (ResNet's 1x1 layers, the
// pointwise half of MobileNet's separable ones), on machines with AVX-512: such a convolution is
// the matrix product y[pixels, M] = x[pixels, C] * w^T, each output pixel reading one input
// pixel's C contiguous channels. Our own AVX-512 kernel (6 or 7 pixels x 64 channels a tile, the
// weights packed once) is level with oneDNN 2.6's brgconv_1x1 when a layer runs alone with its
// data in cache (75-85 % of a core's FMA peak). Inside a network, where the activations come from
// L3 and the deep layers' weights from memory at every run, it fetches both ahead of the FMAs:
// there it is faster (MobileNetV2 b1 about 17 %, ResNet-50 b1 2-4 %; BENCHMARKS.md, session 16).
//
// Each output is a single chain of fused multiply-adds over the input channels in order, plus
// the bias (then the addend, activation and rounding of OutputEpilogueSteps, when the caller offers
// them): the same operations however the work is shared out, so the result does not depend on
// the thread count or the batch (as with the other channels-last kernels).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>

#include "conv/convolution.hpp"

namespace asc::ops {

// The weights [M, C, 1, 1] packed for the kernel: panels of 64 output channels, each C rows of
// 64 floats (zeros past M), so that a row of a panel is four aligned vectors.
struct PointwiseWeights {
  std::int64_t in_channels = 0, out_channels = 0, panels = 0;
  std::shared_ptr<float[]> panel_data;  // panels * in_channels * 64 floats, 64-byte aligned
};

// Whether pointwise_conv runs this convolution: 1x1 kernel, any stride, no padding, one group, a
// CPU with AVX-512F, and an image size where it was measured faster than oneDNN (the .cpp), which
// is wider where pointwise_conv would fold an addend or the rounding to fp16 into its stores
// (pointwise_conv_folds).
bool pointwise_conv_suits(const ConvGeometry& geometry, bool folds_addend_or_rounding);

// Whether pointwise_conv would add steps' addend or round to fp16 as it stores (OutputEpilogueSteps
// given with the epilogue, the addend laid out as the result, `y_shape` and `y_strides`).
bool pointwise_conv_folds(const OutputEpilogue* epilogue, const OutputEpilogueSteps* steps, const Shape& y_shape,
                          const Shape& y_strides);

PointwiseWeights pack_pointwise_weights(const ConvGeometry& geometry, const Tensor& weights);

// conv(x, w) + bias as a new channels-last tensor; x is channels-last float32, bias [M] or
// nullptr. A non-null `epilogue` runs once on every element of the result, on ranges each thread
// has just computed (KernelContext::output_epilogue). With `steps` (which then describe
// `epilogue`), the tiles add the addend and apply the activation as they store, and only
// steps->then runs on the ranges; where the addend is not laid out as the result, `epilogue` does.
Tensor pointwise_conv(const ConvGeometry& geometry, const Tensor& x, const PointwiseWeights& weights,
                      const float* bias, int threads, const OutputEpilogue* epilogue,
                      const OutputEpilogueSteps* steps);

namespace detail {

// Output channels per panel (four vectors of 16 floats).
inline constexpr std::int64_t kPointwisePanel = 64;

// Output pixels per tile. 6 where a tile's pixels run on across output rows (stride 1): 6 x 4
// accumulators leave registers for the panel's row and the broadcast, where GCC keeps one of 7 x
// 4 on the stack (ResNet-50 b8 about 3 % faster, b1 level; BENCHMARKS.md, session 17). 7 where a
// tile stops at the end of its output row (strided layers): ResNet's are 7, 14 and 28 wide.
constexpr std::int64_t pointwise_tile_rows(bool stride_one) { return stride_one ? 6 : 7; }

// Pixels per work item of pointwise_conv where an item covers all panels: four tiles.
constexpr std::int64_t pointwise_item_pixels(bool stride_one) { return 4 * pointwise_tile_rows(stride_one); }

// One kernel call's operands: output pixel p (image n, row oh, column ow, p = (n * OH + oh) * OW
// + ow) reads input pixel (n, oh * stride_h, ow * stride_w).
// The tiles store y = activation(conv + bias + addend), rounded to fp16 where asked
// (OutputEpilogueSteps), addend laid out as y.
struct PointwiseJob {
  const float* x = nullptr;
  const PointwiseWeights* weights = nullptr;
  const float* bias = nullptr;
  float* y = nullptr;
  std::int64_t in_rows = 0, in_cols = 0, out_rows = 0, out_cols = 0, stride_h = 1, stride_w = 1;
  const float* addend = nullptr;
  OutputEpilogueSteps::Activation activation = OutputEpilogueSteps::Activation::None;
  float low = 0, high = 0;  // Clip's
  bool round_to_f16 = false;
};

// Computes output pixels [pixel_begin, pixel_end) for the output channels of panels
// [panel_begin, panel_end) (pointwise_conv_avx512.cpp, compiled for AVX-512F). Where the range is
// at most pointwise_item_pixels (a tile at a time over all the panels), a non-null `tile_done` is
// called with each tile's pixels [first, end) as soon as they are final.
void pointwise_tiles_avx512(const PointwiseJob& job, std::int64_t pixel_begin, std::int64_t pixel_end,
                            std::int64_t panel_begin, std::int64_t panel_end,
                            const std::function<void(std::int64_t, std::int64_t)>* tile_done);

}  // namespace detail
}  // namespace asc::ops
