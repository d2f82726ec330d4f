// The activation a fused operator (FusedConv, FusedMatMul, FusedGemm) applies to its result,
// named by its "activation" attribute with "activation_params":
//   Relu, Sigmoid, Tanh, HardSwish, SiLU (x*sigmoid(x)), Gelu (erf form), GeluTanh  — no params
//   LeakyRelu [alpha], HardSigmoid [alpha, beta], Clip [min, max] (an infinite bound = omitted)
//   Div [divisor], Mul [factor]: a scaling by a constant (MatMul products only, see
//   core/activation_match.hpp's match_scalar_scale)
// Absent or "" means none. The activation runs through the registered kernels of the operators it
// replaced, so the fused result equals the unfused one.
#pragma once

#include <string>

#include <asc/sdk/op_registry.hpp>

namespace asc::fusion {

bool is_known_activation(const std::string& kind);
std::size_t activation_param_count(const std::string& kind);
// Throws InvalidOperator naming the node for an unknown kind or a wrong number of params.
void check_activation(const Node& fused);
Tensor apply_activation(const Node& fused, Tensor value, int threads);
// Vector-unit work per output element (0 without an activation).
double activation_flops_per_element(const Node& fused);

}  // namespace asc::fusion
