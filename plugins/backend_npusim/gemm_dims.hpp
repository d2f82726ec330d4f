// The matrix multiply a cube operator performs, from its operand shapes: what the cube pads to
// its fractal shape.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/tensor.hpp>
#include <cstdint>
#include <optional>
#include <vector>

namespace asc::npusim {

// `batch` independent (m x k) * (k x n) products. `packed` > 1: each product holds that many
// groups of a grouped convolution side by side (block-diagonal weights), so only 1/packed of its
// multiply-adds are the operator's.
struct GemmDims {
  std::int64_t batch = 1, m = 0, n = 0, k = 0;
  std::int64_t packed = 1;
  // K as the cube runs it when the operand layout pads more than rounding K to the fractal: a
  // convolution's FRACTAL_Z weight pads the input channels to C0 at every kernel position
  // (profile_task_inputs sets it). 0: k.
  std::int64_t device_k = 0;
  double flops() const { return 2.0 * static_cast<double>(batch) * m * n * k / static_cast<double>(packed); }
};

// The cube's fractal width in channels (16 for fp16; C0 of NC1HWC0): how many groups with fewer
// channels than that a grouped convolution packs into one product.
inline constexpr std::int64_t kGroupPackChannels = 16;

// Conv (img2col view: m = N*output pixels, n = output channels per group, k = input channels per
// group * kernel size, batch = groups; groups narrower than the fractal are packed, as CANN's
// depthwise kernels run C0 = 16 channels of NC1HWC0 per cube pass: a depthwise 3x3 over 144
// channels is 9 products of k = 9 x 16, n = 16, not 144 products of k = 9, n = 1 each padded to a
// 16-wide fractal and writing 16 times its output), MatMul (numpy broadcasting: batch = the output's leading
// dims; with a B shared by every batch, one GEMM whose M folds in A's leading dims) and Gemm, and the fusion plugin's FusedConv, FusedMatMul and FusedGemm (domain "asc").
// std::nullopt for other ops or shapes it cannot read.
std::optional<GemmDims> gemm_dims(const Node& node, const std::vector<Shape>& inputs, const std::vector<Shape>& outputs);

}  // namespace asc::npusim
