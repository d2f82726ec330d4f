// Recognising the activation applied to a value, for the passes that fold activations into
// FusedConv / FusedMatMul / FusedGemm (see ops/activation_epilogue.hpp for the kinds).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <asc/sdk/graph.hpp>

#include "core/value_uses.hpp"

namespace asc::fusion {

struct ActivationMatch {
  std::string kind;
  std::vector<float> params;
  std::vector<Node*> nodes;  // the activation's own nodes (SiLU: the Sigmoid and the Mul)
  std::string output;
};

// The activation that is the only reader of `value`: Relu, Clip with constant bounds,
// LeakyRelu, Sigmoid, HardSigmoid, HardSwish, Tanh, asc.Gelu, or SiLU (Sigmoid(x) and Mul(x, ·)
// being x's only two readers).
std::optional<ActivationMatch> match_activation(const Graph& graph, const ValueUses& uses, const std::string& value);

// A scaling by a constant that is the only reader of `value`: Div(value, c) or Mul(value, c) /
// Mul(c, value) with c a one-element constant of rank <= 1 (so the result keeps value's shape).
// Kind "Div" [c] or "Mul" [c]. Only a Cube product takes it as its epilogue (MatMulActivationFusion):
// CANN's TbeBatchMatmulElementWiseFusionPass fuses Div/RealDiv after a BatchMatMul, its
// TbeFullyconnectionElemwiseFusionPass Mul after a MatMul; the attention scores' 1/sqrt(d) is one.
std::optional<ActivationMatch> match_scalar_scale(const Graph& graph, const ValueUses& uses, const std::string& value);

// Records the activation on a fused node ("activation", "activation_params").
void set_activation(Node& fused, const ActivationMatch& activation);

}  // namespace asc::fusion
