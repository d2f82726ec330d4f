#include "ops/activation_epilogue.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include "ops/gelu_math.hpp"
#include "ops/inner_ops.hpp"

namespace asc::fusion {
namespace {

struct ActivationKind {
  const char* name;
  std::size_t params;
  double flops;  // per element, as the operator library charges the unfused ops
};

constexpr ActivationKind kKinds[] = {
    {"Relu", 0, 1},      {"Sigmoid", 0, 8},     {"Tanh", 0, 8},      {"HardSwish", 0, 4},
    {"SiLU", 0, 9},      {"Gelu", 0, 12},       {"GeluTanh", 0, 14}, {"LeakyRelu", 1, 2},
    {"HardSigmoid", 2, 3}, {"Clip", 2, 2},      {"Div", 1, 1},       {"Mul", 1, 1},
};

const ActivationKind* find_kind(const std::string& kind) {
  for (const ActivationKind& k : kKinds)
    if (kind == k.name) return &k;
  return nullptr;
}

std::string activation_of(const Node& fused) { return fused.attributes.get_string("activation", ""); }

// A Clip bound as a one-element tensor of the value's dtype; nullptr (omitted) when infinite.
const Tensor* clip_bound(float bound, DType dtype, Tensor& storage) {
  if (std::isinf(bound)) return nullptr;
  storage = Tensor::scalar<float>(bound).cast(dtype);
  return &storage;
}

}  // namespace

bool is_known_activation(const std::string& kind) { return find_kind(kind) != nullptr; }

std::size_t activation_param_count(const std::string& kind) {
  const ActivationKind* k = find_kind(kind);
  return k == nullptr ? 0 : k->params;
}

void check_activation(const Node& fused) {
  const std::string kind = activation_of(fused);
  if (kind.empty()) return;
  const ActivationKind* k = find_kind(kind);
  if (k == nullptr)
    throw Error(ErrorCode::InvalidOperator, fused.describe() + ": unknown activation '" + kind + "'");
  const auto params = fused.attributes.get_floats("activation_params");
  if (params.size() != k->params)
    throw Error(ErrorCode::InvalidOperator, fused.describe() + ": activation " + kind + " takes " +
                                                std::to_string(k->params) + " activation_params, got " +
                                                std::to_string(params.size()));
}

Tensor apply_activation(const Node& fused, Tensor value, int threads) {
  const std::string kind = activation_of(fused);
  if (kind.empty()) return value;
  check_activation(fused);
  const auto params = fused.attributes.get_floats("activation_params");
  if (kind == "Relu" || kind == "Sigmoid" || kind == "Tanh" || kind == "HardSwish")
    return run_inner(fused, kind, {&value}, threads);
  if (kind == "SiLU") {
    const Tensor gate = run_inner(fused, "Sigmoid", {&value}, threads);
    return run_inner(fused, "Mul", {&value, &gate}, threads);
  }
  // gelu() walks contiguous tensors; the operators run_inner calls take channels-last ones too.
  if (kind == "Gelu" || kind == "GeluTanh") return gelu(value.contiguous(), kind == "GeluTanh", fused, threads);
  Attributes attributes;
  if (kind == "LeakyRelu") {
    attributes.set("alpha", params[0]);
    return run_inner(fused, kind, {&value}, threads, std::move(attributes));
  }
  if (kind == "HardSigmoid") {
    attributes.set("alpha", params[0]);
    attributes.set("beta", params[1]);
    return run_inner(fused, kind, {&value}, threads, std::move(attributes));
  }
  if (kind == "Div" || kind == "Mul") {  // a scalar scaling (core/activation_match.hpp, match_scalar_scale)
    const Tensor factor = Tensor::scalar<float>(params[0]).cast(value.dtype());
    return run_inner(fused, kind, {&value, &factor}, threads);
  }
  Tensor low, high;  // Clip
  return run_inner(fused, "Clip",
                   {&value, clip_bound(params[0], value.dtype(), low), clip_bound(params[1], value.dtype(), high)},
                   threads);
}

double activation_flops_per_element(const Node& fused) {
  const ActivationKind* k = find_kind(activation_of(fused));
  return k == nullptr ? 0.0 : k->flops;
}

}  // namespace asc::fusion
