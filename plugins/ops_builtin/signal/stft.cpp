// STFT (opset 17): DFTs of frames of frame_length samples taken every frame_step samples from a
// signal [batch, length, 1|2], each multiplied by the optional window first. The frame length
// is frame_length or the window's length (both given: they must agree). Output
// [batch, frames, bins, 2] with frames = (length - frame_length) / frame_step + 1 and bins
// frame_length / 2 + 1 when onesided (the default), else frame_length.
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include <asc/sdk/op_cost.hpp>
#include "common/elementwise.hpp"
#include "signal/complex_signal.hpp"
#include "signal/signal_inputs.hpp"
#include "tensor/inference_helpers.hpp"

namespace asc::ops {
namespace {

[[noreturn]] void stft_fail(const Node& node, const std::string& what) {
  throw Error(ErrorCode::InvalidOperator, node.describe() + ": " + what);
}

bool stft_onesided(const Node& node) {
  return node.attributes.get_int("onesided", 1) != 0;
}

std::int64_t stft_output_bins(const Node& node, std::int64_t frame_length) {
  return stft_onesided(node) ? frame_length / 2 + 1 : frame_length;
}

// The frame length from the frame_length input and/or the window's length (nullopt: unknown).
std::optional<std::int64_t> resolve_frame_length(const Node& node, std::optional<std::int64_t> given,
                                                 std::optional<std::int64_t> window, bool has_given) {
  if (given && window && *given != *window)
    stft_fail(node, "frame_length " + std::to_string(*given) + " differs from the window's length " +
                        std::to_string(*window));
  const std::optional<std::int64_t> length = has_given ? given : window;
  if (length && *length < 1) stft_fail(node, "frame length " + std::to_string(*length) + " must be >= 1");
  return length;
}

std::int64_t frame_count(const Node& node, std::int64_t signal_length, std::int64_t frame_length, std::int64_t step) {
  if (step < 1) stft_fail(node, "frame_step " + std::to_string(step) + " must be >= 1");
  if (signal_length < frame_length)
    stft_fail(node, "signal of length " + std::to_string(signal_length) + " is shorter than one frame (" +
                        std::to_string(frame_length) + ")");
  return (signal_length - frame_length) / step + 1;
}

void stft_infer(InferenceContext& context) {
  const Node& node = context.node;
  const ValueInfo& signal = context.input(0);
  if (signal.shape && signal.shape->size() != 3)
    stft_fail(node,
              "signal has rank " + std::to_string(signal.shape->size()) + ", expected [batch, length, 1|2]");
  if (!context.has_input(2) && !context.has_input(3)) stft_fail(node, "needs a window or a frame_length");
  Dims dims = unknown_dims(4);
  dims[3] = 2;
  if (signal.shape) dims[0] = (*signal.shape)[0];
  const std::optional<std::int64_t> window = context.has_input(2) ? input_length(context, 2) : std::nullopt;
  const std::optional<std::int64_t> frame_length =
      resolve_frame_length(node, known_scalar_int_input(context, 3), window, context.has_input(3));
  if (frame_length) {
    dims[2] = stft_output_bins(node, *frame_length);
    const std::optional<std::int64_t> step = known_scalar_int_input(context, 1);
    if (step && signal.shape && (*signal.shape)[1].is_static())
      dims[1] = frame_count(node, (*signal.shape)[1].value, *frame_length, *step);
  }
  set_output(context, 0, signal.dtype, std::move(dims));
}

void stft_compute(KernelContext& context) {
  const Node& node = context.node;
  const Tensor& input = context.input(0);
  if (input.rank() != 3)
    stft_fail(node, "signal has shape " + shape_to_string(input.shape()) + ", expected [batch, length, 1|2]");
  const std::vector<Complex> signal = read_complex_signal(input, node);
  std::vector<double> window;
  if (context.has_input(2)) {
    const Tensor& window_tensor = context.input(2);
    require_type_set<TypeSet::Floating>(window_tensor.dtype(), node);
    if (window_tensor.rank() != 1)
      stft_fail(node, "window has shape " + shape_to_string(window_tensor.shape()) + ", expected 1-D");
    window = window_tensor.to_doubles();
  }
  const bool has_length = context.has_input(3);
  if (!has_length && !context.has_input(2)) stft_fail(node, "needs a window or a frame_length");
  const std::int64_t frame_length = *resolve_frame_length(
      node, has_length ? std::optional(scalar_int_input(context, 3, "frame_length")) : std::nullopt,
      context.has_input(2) ? std::optional(static_cast<std::int64_t>(window.size())) : std::nullopt, has_length);
  const std::int64_t step = scalar_int_input(context, 1, "frame_step");
  const std::int64_t batch = input.shape()[0];
  const std::int64_t length = input.shape()[1];
  const std::int64_t frames = frame_count(node, length, frame_length, step);
  const std::int64_t bins = stft_output_bins(node, frame_length);

  std::vector<Complex> output(static_cast<std::size_t>(batch * frames * bins));
  std::vector<Complex> frame(static_cast<std::size_t>(frame_length));
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t f = 0; f < frames; ++f) {
      const Complex* start = signal.data() + b * length + f * step;
      for (std::size_t t = 0; t < frame.size(); ++t) frame[t] = window.empty() ? start[t] : start[t] * window[t];
      direct_dft(frame, false, std::span(output).subspan(static_cast<std::size_t>((b * frames + f) * bins),
                                                         static_cast<std::size_t>(bins)));
    }
  context.outputs[0] = complex_tensor(output, {batch, frames, bins}, input.dtype());
}

// Vector unit: per output bin, one complex multiply-add per frame sample (plus the windowing).
CostFacts stft_cost(const CostContext& context) {
  CostFacts facts{0.0, input_bytes(context), output_bytes(context), ComputeUnit::Vector};
  const ValueInfo* output = context.outputs.empty() ? nullptr : context.outputs[0];
  if (output == nullptr || !output->has_static_shape()) return facts;
  const Shape shape = output->static_shape();
  const ValueInfo* window = context.inputs.size() > 2 ? context.inputs[2] : nullptr;
  const std::int64_t bins = shape[2];
  const std::int64_t frame_length = window != nullptr && window->has_static_shape() ? value_elements(window)
                                    : stft_onesided(context.node)                   ? 2 * (bins - 1)
                                                                                    : bins;
  facts.flops = direct_dft_flops(static_cast<double>(frame_length), static_cast<double>(shape[0] * shape[1] * bins));
  return facts;
}

}  // namespace

ASC_REGISTER_OP("", "STFT", 17, 17, stft_infer, stft_compute, stft_cost);

}  // namespace asc::ops
