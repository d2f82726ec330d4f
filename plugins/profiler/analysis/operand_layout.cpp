#include "analysis/operand_layout.hpp"

#include "analysis/shape_text.hpp"
#include "analysis/text_format.hpp"

namespace asc::profiler {
namespace {

std::optional<Dims> operand_shape(const std::string& shapes, std::size_t index) {
  const auto list = parse_shape_list(shapes);
  if (index >= list.size() || !list[index] || list[index]->empty()) return std::nullopt;
  return list[index];
}

std::string operand_format(const std::string& formats, std::size_t index) {
  return to_lower(operand_item(formats, index));
}

bool is_fractal_or_c0(const std::string& format) {
  return format.find("c0") != std::string::npos || format.find("fractal") != std::string::npos;
}

// FRACTAL_NZ (..., N1, M1, M0, N0) read as the ND matrix (..., M1*M0, N1*N0).
Dims as_matrix(const Dims& dims, const std::string& format) {
  if (format != "fractal_nz" || dims.size() < 4) return dims;
  const std::size_t r = dims.size();
  Dims nd(dims.begin(), dims.end() - 4);
  nd.push_back(dims[r - 3] * dims[r - 2]);
  nd.push_back(dims[r - 4] * dims[r - 1]);
  return nd;
}

}  // namespace

std::optional<std::int64_t> conv_input_channels(const ProfileEvent& event) {
  const auto shape = operand_shape(event.input_shapes, 0);
  const std::string format = operand_format(event.input_formats, 0);
  if (!shape || shape->size() < 3 || is_fractal_or_c0(format)) return std::nullopt;
  if (format == "nhwc" || format == "ndhwc" || format == "nlc") return shape->back();
  return (*shape)[1];
}

std::optional<std::int64_t> conv_batch(const ProfileEvent& event) {
  const auto shape = operand_shape(event.input_shapes, 0);
  if (!shape || shape->size() < 3) return std::nullopt;
  return shape->front();
}

std::string MatMulDims::text() const {
  std::string text = batch > 1 ? "batch " + std::to_string(batch) + ", " : std::string();
  return text + "M " + std::to_string(m) + ", N " + std::to_string(n) + ", K " + std::to_string(k);
}

std::optional<MatMulDims> matmul_dims(const ProfileEvent& event) {
  const auto a_raw = operand_shape(event.input_shapes, 0);
  if (!a_raw) return std::nullopt;
  const Dims a = as_matrix(*a_raw, operand_format(event.input_formats, 0));
  if (a.size() < 2) return std::nullopt;
  MatMulDims dims;
  if (const auto out_raw = operand_shape(event.output_shapes, 0)) {
    const Dims out = as_matrix(*out_raw, operand_format(event.output_formats, 0));
    if (out.size() < 2) return std::nullopt;
    dims.m = out[out.size() - 2];
    dims.n = out.back();
    for (std::size_t i = 0; i + 2 < out.size(); ++i) dims.batch *= out[i];
    // A is (..., M, K), or (..., K, M) when transposed.
    const bool a_transposed = a[a.size() - 2] != dims.m && a.back() == dims.m;
    dims.k = a_transposed ? a[a.size() - 2] : a.back();
    return dims;
  }
  const auto b_raw = operand_shape(event.input_shapes, 1);
  if (!b_raw) return std::nullopt;
  const Dims b = as_matrix(*b_raw, operand_format(event.input_formats, 1));
  if (b.size() < 2) return std::nullopt;
  dims.m = a[a.size() - 2];
  dims.k = a.back();
  dims.n = b[b.size() - 2] == dims.k ? b.back() : b[b.size() - 2];
  for (std::size_t i = 0; i + 2 < a.size(); ++i) dims.batch *= a[i];
  return dims;
}

std::int64_t cube_block_for(const ProfileEvent& event) {
  const std::string dtype = to_lower(operand_item(event.input_dtypes, 0));
  return dtype.find("int8") != std::string::npos ? 32 : 16;
}

}  // namespace asc::profiler
