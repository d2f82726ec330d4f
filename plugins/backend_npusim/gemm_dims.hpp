// The matrix multiply a cube operator performs, from its operand shapes: what the cube pads to
// its fractal shape.
#pragma once

#include <asc/sdk/graph.hpp>
#include <asc/sdk/tensor.hpp>
#include <cstdint>
#include <optional>
#include <vector>

namespace asc::npusim {

// `batch` independent (m x k) * (k x n) products.
struct GemmDims {
  std::int64_t batch = 1, m = 0, n = 0, k = 0;
  double flops() const { return 2.0 * static_cast<double>(batch) * m * n * k; }
};

// Conv (img2col view: m = N*output pixels, n = output channels per group, k = input channels per
// group * kernel size, batch = groups), MatMul (numpy broadcasting: batch = the output's leading
// dims; with a B shared by every batch, one GEMM whose M folds in A's leading dims) and Gemm, and the fusion plugin's FusedConv, FusedMatMul and FusedGemm (domain "asc").
// std::nullopt for other ops or shapes it cannot read.
std::optional<GemmDims> gemm_dims(const Node& node, const std::vector<Shape>& inputs, const std::vector<Shape>& outputs);

}  // namespace asc::npusim
