// MelWeightMatrix (opset 17): [dft_length/2 + 1, num_mel_bins] triangular filters that map a
// onesided linear spectrum onto the mel scale, mel(f) = 2595 log10(1 + f / 700). As ONNX's
// reference (and onnxruntime) define it: num_mel_bins + 2 edge frequencies evenly spaced in mel
// from lower_edge_hertz in steps of (mel(upper) - mel(lower)) / (num_mel_bins + 2), each mapped to
// spectrum bin floor((dft_length + 1) * hz / sample_rate); filter i rises from edge i to 1 at edge
// i + 1 and falls back to 0 at edge i + 2.
#include <cmath>
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/elementwise.hpp"
#include "signal/signal_inputs.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void mel_weight_matrix_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

double hz_to_mel(double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); }
double mel_to_hz(double mel) { return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0); }

void mel_weight_matrix_infer(InferenceContext& context) {
  const std::optional<std::int64_t> mel_bins = known_scalar_int_input(context, 0);
  const std::optional<std::int64_t> dft_length = known_scalar_int_input(context, 1);
  set_output(context, 0, output_datatype(context.node),
             Dims{dft_length ? Dim(*dft_length / 2 + 1) : Dim(), mel_bins ? Dim(*mel_bins) : Dim()});
}

void mel_weight_matrix_compute(KernelContext& context) {
  const Node& node = context.node;
  const std::int64_t mel_bins = scalar_int_input(context, 0, "num_mel_bins");
  const std::int64_t dft_length = scalar_int_input(context, 1, "dft_length");
  const std::int64_t sample_rate = scalar_int_input(context, 2, "sample_rate");
  const double lower_hz = scalar_float_input(context, 3, "lower_edge_hertz");
  const double upper_hz = scalar_float_input(context, 4, "upper_edge_hertz");
  if (mel_bins < 1 || dft_length < 1 || sample_rate < 1)
    mel_weight_matrix_fail(node, "num_mel_bins, dft_length and sample_rate must be >= 1");
  if (!(lower_hz >= 0 && lower_hz <= upper_hz))
    mel_weight_matrix_fail(node, "needs 0 <= lower_edge_hertz <= upper_edge_hertz");
  const std::int64_t spectrum_bins = dft_length / 2 + 1;

  const double low_mel = hz_to_mel(lower_hz);
  const double mel_step = (hz_to_mel(upper_hz) - low_mel) / static_cast<double>(mel_bins + 2);
  std::vector<std::int64_t> edges(static_cast<std::size_t>(mel_bins + 2));
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const double hz = mel_to_hz(low_mel + mel_step * static_cast<double>(i));
    edges[i] = static_cast<std::int64_t>(std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate)));
  }
  if (edges.back() >= spectrum_bins)
    mel_weight_matrix_fail(node, "upper_edge_hertz " + std::to_string(upper_hz) + " maps past the last of " +
                                     std::to_string(spectrum_bins) + " spectrum bins");

  Tensor matrix(DType::Float64, {spectrum_bins, mel_bins});
  double* out = matrix.data<double>();
  for (std::int64_t i = 0; i < mel_bins; ++i) {
    const std::int64_t left = edges[static_cast<std::size_t>(i)];
    const std::int64_t center = edges[static_cast<std::size_t>(i + 1)];
    const std::int64_t right = edges[static_cast<std::size_t>(i + 2)];
    if (center == left) out[center * mel_bins + i] = 1.0;
    for (std::int64_t j = left; j <= center && center > left; ++j)
      out[j * mel_bins + i] = static_cast<double>(j - left) / static_cast<double>(center - left);
    for (std::int64_t j = center; j < right; ++j)
      out[j * mel_bins + i] = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  const DType dtype = output_datatype(node);
  context.outputs[0] = dtype == DType::Float64 ? matrix : matrix.cast(dtype);
}

const CostFunction mel_weight_matrix_cost = per_element_cost(element_flops::kDivide);

}  // namespace

ASC_REGISTER_OP("", "MelWeightMatrix", 17, 17, mel_weight_matrix_infer, mel_weight_matrix_compute,
                mel_weight_matrix_cost);

}  // namespace asc::ops
