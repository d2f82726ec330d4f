#include "gemm_dims.hpp"

#include <algorithm>

namespace asc::npusim {
namespace {

std::int64_t product(const Shape& shape, std::size_t from, std::size_t to) {
  std::int64_t p = 1;
  for (std::size_t i = from; i < to && i < shape.size(); ++i) p *= shape[i];
  return p;
}

std::optional<GemmDims> conv_dims(const std::vector<Shape>& in, const std::vector<Shape>& out) {
  if (in.size() < 2 || out.empty() || in[0].size() < 3 || in[1].size() != in[0].size() || out[0].size() != in[0].size())
    return std::nullopt;
  const Shape& x = in[0];
  const Shape& w = in[1];
  const Shape& y = out[0];
  if (w[1] <= 0 || x[1] % w[1] != 0) return std::nullopt;
  const std::int64_t groups = x[1] / w[1];
  if (groups <= 0 || w[0] % groups != 0) return std::nullopt;
  const std::int64_t m = y[0] * product(y, 2, y.size()), n = w[0] / groups, kernel = product(w, 2, w.size());
  const std::int64_t pack = groups > 1 ? std::min(groups, kGroupPackChannels / std::max(n, w[1])) : 1;
  if (pack <= 1) return GemmDims{groups, m, n, w[1] * kernel};
  return GemmDims{(groups + pack - 1) / pack, m, n * pack, w[1] * kernel * pack, pack};
}

std::optional<GemmDims> matmul_dims(const std::vector<Shape>& in, const std::vector<Shape>& out) {
  if (in.size() < 2 || out.empty() || in[0].empty() || in[1].empty()) return std::nullopt;
  const Shape& a = in[0];
  const Shape& b = in[1];
  const std::int64_t m = a.size() == 1 ? 1 : a[a.size() - 2];
  const std::int64_t k = a.back();
  const std::int64_t n = b.size() == 1 ? 1 : b.back();
  const std::int64_t output_elements = num_elements(out[0]);
  if (m <= 0 || n <= 0 || k <= 0) return std::nullopt;
  // A weight-like B (2-D, or every leading dim 1) is shared by every leading index of A: that is
  // one GEMM with A's leading dims folded into M ([512,4,768] x [768,2304] is M = 2048), as any
  // NPU compiler maps it, not `batch` small GEMMs that each reload B.
  if (a.size() >= 2 && product(b, 0, b.size() >= 2 ? b.size() - 2 : 0) == 1) {
    const std::int64_t folded_m = product(a, 0, a.size() - 1);
    if (folded_m * n == output_elements) return GemmDims{1, folded_m, n, k};
  }
  return GemmDims{output_elements / (m * n), m, n, k};
}

std::optional<GemmDims> gemm_op_dims(const std::vector<Shape>& in, const std::vector<Shape>& out) {
  if (in.size() < 2 || out.empty() || out[0].size() != 2 || in[0].size() != 2) return std::nullopt;
  const std::int64_t m = out[0][0];
  const std::int64_t n = out[0][1];
  if (m <= 0 || n <= 0) return std::nullopt;
  return GemmDims{1, m, n, num_elements(in[0]) / m};
}

}  // namespace

std::optional<GemmDims> gemm_dims(const Node& node, const std::vector<Shape>& inputs, const std::vector<Shape>& outputs) {
  const bool onnx = node.domain.empty() || node.domain == "ai.onnx";
  // The fusion plugin's operators (domain "asc") keep their base operator's leading inputs.
  const bool fused = node.domain == "asc";
  if ((onnx && node.op_type == "Conv") || (fused && node.op_type == "FusedConv")) return conv_dims(inputs, outputs);
  if ((onnx && node.op_type == "MatMul") || (fused && node.op_type == "FusedMatMul")) return matmul_dims(inputs, outputs);
  if ((onnx && node.op_type == "Gemm") || (fused && node.op_type == "FusedGemm")) return gemm_op_dims(inputs, outputs);
  return std::nullopt;
}

}  // namespace asc::npusim
