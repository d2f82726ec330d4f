// asc.FusedConv(X, W, B?, Z?) -> Y = activation(Conv(X, W, B) + Z)
// Conv's attributes plus "activation"/"activation_params" (activation_epilogue.hpp). Z, the
// residual, has Y's shape. Made by ConvResidualAddFusion and ConvActivationFusion; on the NPU it
// is one Cube kernel whose epilogue runs on the tile before it leaves the buffer.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <limits>
#include <optional>

#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/parallel.hpp>

#include <asc/sdk/op_cost.hpp>
#include "ops/activation_epilogue.hpp"
#include "ops/inner_ops.hpp"
#include "ops/input_prefix.hpp"

namespace asc::fusion {
namespace {

constexpr std::size_t kConvInputs = 3;
constexpr std::size_t kResidual = 3;

Attributes conv_attributes(const Node& fused) {
  Attributes attributes = fused.attributes;
  attributes.erase("activation");
  attributes.erase("activation_params");
  return attributes;
}

void fused_conv_infer(InferenceContext& context) {
  check_activation(context.node);
  const ValueInfo y = infer_inner(context.node, "Conv", input_prefix(context.inputs, kConvInputs),
                                  input_prefix(context.input_values, kConvInputs), conv_attributes(context.node));
  context.outputs[0].dtype = y.dtype;
  context.outputs[0].shape = y.shape;
}

// The epilogues done in place on the Conv's output, as the SDK's OutputEpilogueSteps (without
// `then`): the residual Add and/or a ReLU or a Clip (MobileNet's ReLU6); nullopt for other
// activations and for none without a residual.
std::optional<OutputEpilogueSteps> in_place_epilogue(const Node& fused, const Tensor* residual) {
  using Activation = OutputEpilogueSteps::Activation;
  const std::string activation = fused.attributes.get_string("activation", "");
  OutputEpilogueSteps steps;
  steps.addend = residual;
  if (activation == "Relu") {
    steps.activation = Activation::Relu;
  } else if (activation == "Clip") {
    const auto params = fused.attributes.get_floats("activation_params");
    if (params.size() != 2) return std::nullopt;  // the general path reports it (check_activation)
    // apply_activation omits an infinite bound, and Clip then uses the type's extremes.
    const auto bound = [](float value, float omitted) { return std::isinf(value) ? omitted : value; };
    steps.activation = Activation::Clip;
    steps.low = bound(params[0], std::numeric_limits<float>::lowest());
    steps.high = bound(params[1], std::numeric_limits<float>::max());
  } else if (!activation.empty() || residual == nullptr) {
    return std::nullopt;
  }
  return steps;
}

// The epilogue as the inner Conv runs it on each thread's piece of the output while it is in
// cache, followed by the caller's own (KernelContext::output_epilogue). The Conv calls it only on
// its channels-last path, so a residual must be channels-last too; empty (the Conv then runs
// without) for other activations and operands. A residual laid out unlike the output (another
// shape: a broadcast) is seen on the first call, and every call then leaves its range alone and
// sets `declined`, for the whole-tensor path to do the work.
OutputEpilogue piece_epilogue(const KernelContext& context, const Tensor* residual, std::atomic<bool>& declined) {
  const std::optional<OutputEpilogueSteps> in_place = in_place_epilogue(context.node, residual);
  if (!in_place) return {};
  if (residual != nullptr &&
      (residual->dtype() != DType::Float32 || residual->rank() != 4 || !residual->is_channels_last()))
    return {};
  const OutputEpilogue* after = context.output_epilogue ? &context.output_epilogue : nullptr;
  return [epilogue = *in_place, residual, after, &declined](Tensor& y, std::int64_t begin, std::int64_t end) {
    if (y.dtype() != DType::Float32 ||
        (residual != nullptr && (residual->shape() != y.shape() || residual->strides() != y.strides()))) {
      declined = true;
      return;
    }
    // In runs that stay in L1, so that the caller's epilogue (the NPU simulator's rounding to
    // fp16) reads each run straight after this one wrote it instead of in a second pass over the
    // piece, which is often larger than L2 (whole images at batch 8).
    constexpr std::int64_t kRun = 4096;  // 16 KB of floats
    for (std::int64_t first = begin; first < end; first += kRun) {
      const std::int64_t last = std::min(end, first + kRun);
      apply_epilogue_steps(epilogue, y.data<float>() + first,
                           residual == nullptr ? nullptr : residual->data<float>() + first, last - first);
      if (after != nullptr) (*after)(y, first, last);
    }
  };
}

// piece_epilogue's work as data (KernelContext::output_epilogue_steps), for a Conv that folds
// the residual and the activation into its own stores and runs only the caller's epilogue after.
std::optional<OutputEpilogueSteps> piece_epilogue_steps(const KernelContext& context, const Tensor* residual) {
  std::optional<OutputEpilogueSteps> steps = in_place_epilogue(context.node, residual);
  if (!steps) return steps;
  // The caller's own epilogue after ours: as steps too where it is only a rounding to fp16 (the
  // NPU simulator's), else as the function.
  const std::optional<OutputEpilogueSteps>& caller = context.output_epilogue_steps;
  if (caller && caller->addend == nullptr && caller->activation == OutputEpilogueSteps::Activation::None) {
    steps->round_to_f16 = caller->round_to_f16;
    steps->then = caller->then;
  } else {
    steps->then = context.output_epilogue;
  }
  steps->addend_reusable = residual != nullptr && context.input_is_reusable(kResidual);
  return steps;
}

// The same epilogue in one pass, in place on the convolution's fresh output, when the Conv did
// not run it on its pieces: two fewer full passes over the activation, and no new buffers; the
// kernel's threads share it.
// False when the operands need the general path (other dtypes, broadcasting, other activations).
bool epilogue_in_place(const Node& fused, Tensor& y, const Tensor* residual, int threads) {
  const std::optional<OutputEpilogueSteps> epilogue = in_place_epilogue(fused, residual);
  if (!epilogue) return false;
  // One run along memory: y contiguous or channels-last, and the residual laid out the same.
  const bool dense = y.is_contiguous() || (y.rank() >= 3 && y.is_channels_last());
  if (y.dtype() != DType::Float32 || !dense || y.buffer().use_count() != 1) return false;
  if (residual != nullptr && (residual->dtype() != DType::Float32 || residual->shape() != y.shape() ||
                              !(residual->is_contiguous() ? y.is_contiguous() : residual->strides() == y.strides())))
    return false;
  float* out = y.data<float>();
  const float* add = residual == nullptr ? nullptr : residual->data<float>();
  const std::int64_t n = y.numel();
  constexpr std::int64_t kChunk = 16384;  // elements per work item: 64 KB, a few microseconds
  parallel_for(threads, (n + kChunk - 1) / kChunk, [&](std::int64_t chunk) {
    const std::int64_t begin = chunk * kChunk, count = std::min(n, begin + kChunk) - begin;
    apply_epilogue_steps(*epilogue, out + begin, add == nullptr ? nullptr : add + begin, count);
  });
  return true;
}

void fused_conv_compute(KernelContext& context) {
  const Tensor* residual = context.has_input(kResidual) ? context.inputs[kResidual] : nullptr;
  std::atomic<bool> declined{false};
  InnerStep conv = run_inner_step(context, "Conv", input_prefix(context.inputs, kConvInputs), conv_attributes,
                                  piece_epilogue(context, residual, declined), piece_epilogue_steps(context, residual));
  if (conv.epilogue_done && !declined) {
    context.outputs[0] = std::move(conv.output);
    context.output_epilogue_done = static_cast<bool>(context.output_epilogue);
    return;
  }
  Tensor y = std::move(conv.output);
  if (epilogue_in_place(context.node, y, residual, context.threads)) {
    context.outputs[0] = std::move(y);
    return;
  }
  if (residual != nullptr) y = run_inner(context.node, "Add", {&y, residual}, context.threads);
  context.outputs[0] = apply_activation(context.node, std::move(y), context.threads);
}

CostFacts fused_conv_cost(const CostContext& context) {
  CostFacts facts = cost_inner(context, "Conv", input_prefix(context.inputs, kConvInputs), conv_attributes(context.node));
  const auto elements = static_cast<double>(value_elements(context.outputs[0]));
  if (const ValueInfo* residual = input_at(context.inputs, kResidual)) {
    facts.flops += elements;
    facts.bytes_read += value_bytes(residual);
  }
  facts.flops += activation_flops_per_element(context.node) * elements;
  facts.unit = ComputeUnit::Cube;
  return facts;
}

}  // namespace

// X and the residual Z may come channels-last (the inner Conv and the in-place epilogue take them so).
ASC_REGISTER_OP_CHANNELS_LAST("asc", "FusedConv", 1, INT_MAX, fused_conv_infer, fused_conv_compute, fused_conv_cost,
                              kChannelsLastInput0 | (InputMask{1} << kResidual));

}  // namespace asc::fusion
