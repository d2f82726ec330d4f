// Pointwise activations: Relu LeakyRelu Elu Selu Celu Sigmoid HardSigmoid HardSwish Tanh Softplus
// Softsign ThresholdedRelu Shrink. Defaults of the attributes are ONNX's.
#include <algorithm>
#include <cmath>

#include "common/elementwise.hpp"

namespace asc::ops {
namespace {

using namespace element_flops;

// NaN passes through (as numpy's maximum(x, 0) does).
void relu_compute(KernelContext& context) {
  unary_kernel<TypeSet::Signed>(context, [](auto x) { return x < decltype(x)(0) ? decltype(x)(0) : x; });
}

void leaky_relu_compute(KernelContext& context) {
  const double alpha = context.attrs().get_float("alpha", 0.01f);
  unary_kernel<TypeSet::Floating>(context, [=](auto x) {
    using C = decltype(x);
    return x < C(0) ? C(alpha) * x : x;
  });
}

void elu_compute(KernelContext& context) {
  const double alpha = context.attrs().get_float("alpha", 1.0f);
  unary_kernel<TypeSet::Floating>(context, [=](auto x) {
    using C = decltype(x);
    return x < C(0) ? C(alpha) * std::expm1(x) : x;
  });
}

void selu_compute(KernelContext& context) {
  const double alpha = context.attrs().get_float("alpha", 1.67326319217681884765625f);
  const double gamma = context.attrs().get_float("gamma", 1.05070102214813232421875f);
  unary_kernel<TypeSet::Floating>(context, [=](auto x) {
    using C = decltype(x);
    return x > C(0) ? C(gamma) * x : C(gamma) * C(alpha) * std::expm1(x);
  });
}

void celu_compute(KernelContext& context) {
  const double alpha = context.attrs().get_float("alpha", 1.0f);
  if (alpha == 0.0)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": attribute 'alpha' must not be 0");
  unary_kernel<TypeSet::Floating>(context, [=](auto x) {
    using C = decltype(x);
    return std::max(C(0), x) + std::min(C(0), C(alpha) * std::expm1(x / C(alpha)));
  });
}

// Written so that exp never overflows: for x < 0, exp(x) / (1 + exp(x)).
void sigmoid_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) {
    using C = decltype(x);
    if (x >= C(0)) return C(1) / (C(1) + std::exp(-x));
    const C e = std::exp(x);
    return e / (C(1) + e);
  });
}

void hard_sigmoid_compute(KernelContext& context) {
  const double alpha = context.attrs().get_float("alpha", 0.2f);
  const double beta = context.attrs().get_float("beta", 0.5f);
  unary_kernel<TypeSet::Floating>(context, [=](auto x) {
    using C = decltype(x);
    return std::clamp(C(alpha) * x + C(beta), C(0), C(1));
  });
}

void hard_swish_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) {
    using C = decltype(x);
    return x * std::clamp(x / C(6) + C(0.5), C(0), C(1));
  });
}

void tanh_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return std::tanh(x); });
}

// log(1 + exp(x)) without overflow for large x.
void softplus_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) {
    using C = decltype(x);
    return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  });
}

void softsign_compute(KernelContext& context) {
  unary_kernel<TypeSet::Floating>(context, [](auto x) { return x / (decltype(x)(1) + std::abs(x)); });
}

void thresholded_relu_compute(KernelContext& context) {
  const double alpha = context.attrs().get_float("alpha", 1.0f);
  unary_kernel<TypeSet::Floating>(context, [=](auto x) {
    using C = decltype(x);
    return x > C(alpha) ? x : C(0);
  });
}

// Integer inputs are allowed: the comparison and the bias are applied in double.
void shrink_compute(KernelContext& context) {
  const double lambd = context.attrs().get_float("lambd", 0.5f);
  const double bias = context.attrs().get_float("bias", 0.0f);
  unary_kernel<TypeSet::Numeric>(context, [=](auto x) {
    using C = decltype(x);
    const double v = static_cast<double>(x);
    return static_cast<C>(v < -lambd ? v + bias : v > lambd ? v - bias : 0.0);
  });
}

}  // namespace

ASC_REGISTER_OP_CHANNELS_LAST("", "Relu", 11, 17, infer_like_input, relu_compute, per_element_cost(kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "LeakyRelu", 11, 17, infer_like_input, leaky_relu_compute, per_element_cost(2 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Elu", 11, 17, infer_like_input, elu_compute, per_element_cost(kTranscendental + 2 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Selu", 11, 17, infer_like_input, selu_compute, per_element_cost(kTranscendental + 3 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Celu", 12, 17, infer_like_input, celu_compute,
                per_element_cost(kTranscendental + kDivide + 4 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Sigmoid", 11, 17, infer_like_input, sigmoid_compute,
                per_element_cost(kTranscendental + kDivide + kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "HardSigmoid", 11, 17, infer_like_input, hard_sigmoid_compute, per_element_cost(4 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "HardSwish", 14, 17, infer_like_input, hard_swish_compute, per_element_cost(5 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Tanh", 11, 17, infer_like_input, tanh_compute, per_element_cost(kTranscendental), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Softplus", 11, 17, infer_like_input, softplus_compute,
                per_element_cost(2 * kTranscendental + kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Softsign", 11, 17, infer_like_input, softsign_compute, per_element_cost(kDivide + 2 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "ThresholdedRelu", 11, 17, infer_like_input, thresholded_relu_compute,
                per_element_cost(2 * kSimple), kChannelsLastAllInputs);
ASC_REGISTER_OP_CHANNELS_LAST("", "Shrink", 11, 17, infer_like_input, shrink_compute, per_element_cost(3 * kSimple), kChannelsLastAllInputs);

}  // namespace asc::ops
