// DFT (opset 17): the discrete Fourier transform (or its inverse) of a real or complex signal
// [batch, signal dims..., 1|2] along one signal axis, optionally zero-padded or truncated to
// dft_length, optionally onesided (only the first floor(n/2)+1 bins). Output [..., 2].
// With complex input or inverse, onesided keeps the same leading bins of the full transform.
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "signal/complex_signal.hpp"
#include "signal/signal_inputs.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void dft_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

// The transformed axis of an input of `rank` (the last axis holds the complex parts).
std::int64_t dft_axis(const Node& node, std::int64_t rank) {
  const std::int64_t axis = node.attributes.get_int("axis", 1);
  const std::int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized > rank - 2)
    dft_fail(node, "attribute 'axis' " + std::to_string(axis) + " is not a signal axis of an input of rank " +
                       std::to_string(rank));
  return normalized;
}

bool dft_onesided(const Node& node) {
  return node.attributes.get_int("onesided", 0) != 0;
}

std::int64_t dft_output_bins(const Node& node, std::int64_t length) {
  return dft_onesided(node) ? length / 2 + 1 : length;
}

void check_length(const Node& node, std::int64_t length) {
  if (length < 1) dft_fail(node, "dft_length is " + std::to_string(length) + ", must be >= 1");
}

void dft_infer(InferenceContext& context) {
  const ValueInfo& input = context.input(0);
  if (!input.shape) {
    set_output(context, 0, input.dtype, std::nullopt);
    return;
  }
  Dims dims = *input.shape;
  const std::int64_t axis = dft_axis(context.node, static_cast<std::int64_t>(dims.size()));
  Dim length = dims[static_cast<std::size_t>(axis)];
  if (context.has_input(1)) {
    const std::optional<std::int64_t> given = known_scalar_int_input(context, 1);
    length = given ? Dim(*given) : Dim();
  }
  if (length.is_static()) {
    check_length(context.node, length.value);
    dims[static_cast<std::size_t>(axis)] = dft_output_bins(context.node, length.value);
  } else {
    dims[static_cast<std::size_t>(axis)] = Dim();
  }
  dims.back() = 2;
  set_output(context, 0, input.dtype, std::move(dims));
}

void dft_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& input = context.input(0);
  const std::vector<Complex> signal = read_complex_signal(input, node);
  const Shape signal_shape(input.shape().begin(), input.shape().end() - 1);
  const std::int64_t axis = dft_axis(node, input.rank());
  const std::int64_t available = signal_shape[static_cast<std::size_t>(axis)];
  const std::int64_t length = context.has_input(1) ? scalar_int_input(context, 1, "dft_length") : available;
  check_length(node, length);
  const std::int64_t bins = dft_output_bins(node, length);
  const bool inverse = node.attributes.get_int("inverse", 0) != 0;

  std::int64_t outer = 1;
  std::int64_t inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= signal_shape[static_cast<std::size_t>(d)];
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < signal_shape.size(); ++d) inner *= signal_shape[d];

  Shape output_shape = signal_shape;
  output_shape[static_cast<std::size_t>(axis)] = bins;
  std::vector<Complex> output(static_cast<std::size_t>(outer * bins * inner));
  std::vector<Complex> frame(static_cast<std::size_t>(length));
  std::vector<Complex> spectrum(static_cast<std::size_t>(bins));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      // Zero-pad or truncate the line to dft_length.
      for (std::int64_t t = 0; t < length; ++t)
        frame[static_cast<std::size_t>(t)] =
            t < available ? signal[static_cast<std::size_t>((o * available + t) * inner + i)] : Complex();
      direct_dft(frame, inverse, spectrum);
      for (std::int64_t k = 0; k < bins; ++k)
        output[static_cast<std::size_t>((o * bins + k) * inner + i)] = spectrum[static_cast<std::size_t>(k)];
    }
  context.outputs[0] = complex_tensor(output, output_shape, input.dtype());
}

// Vector unit: every output bin sums the whole (input-length) line directly.
CostFacts dft_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Vector};
  const ValueInfo* input = context.inputs.empty() ? nullptr : context.inputs[0];
  const ValueInfo* output = context.outputs.empty() ? nullptr : context.outputs[0];
  if (input == nullptr || output == nullptr || !input->has_static_shape() || value_elements(output) == 0) return facts;
  const Shape shape = input->static_shape();
  const std::int64_t axis = dft_axis(context.node, static_cast<std::int64_t>(shape.size()));
  facts.flops = direct_dft_flops(static_cast<double>(shape[static_cast<std::size_t>(axis)]),
                                 static_cast<double>(value_elements(output) / 2));
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "DFT", 17, 17, dft_infer, dft_compute, dft_cost);

}  // namespace asc::ops
