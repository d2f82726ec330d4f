#include "passes/conv_batch_norm_fusion.hpp"

#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/claims.hpp"
#include "core/constant_values.hpp"
#include "core/fresh_tensor.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

struct ConvBatchNormFusionMatch {
  Node* conv;
  Node* batch_norm;
};

// Outputs past Y (running statistics) must be unused for the inference form.
bool inference_form(const Node& bn, const ValueUses& uses) {
  if (bn.attributes.get_int("training_mode", 0) != 0) return false;
  for (std::size_t i = 1; i < bn.outputs.size(); ++i)
    if (!bn.outputs[i].empty() && (uses.is_graph_output(bn.outputs[i]) || !uses.consumers(bn.outputs[i]).empty()))
      return false;
  return true;
}

// 16-bit floats convert through float; float and double directly.
template <class T> double widen(T value) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<double>(value);
  else return static_cast<double>(static_cast<float>(value));
}

// W with output channel c multiplied by scale[c], in W's dtype (products in double), written
// once into memory from `arena`.
Tensor scale_channels(const Tensor& weights, const std::vector<double>& scale, TensorArena& arena) {
  const Tensor source = weights.contiguous();
  Tensor scaled = arena.take(source.dtype(), source.shape());
  const auto per_channel = static_cast<std::size_t>(source.numel()) / scale.size();
  visit_dtype(source.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
      const T* in = source.data<T>();
      T* out = scaled.data<T>();
      for (std::size_t c = 0; c < scale.size(); ++c)
        for (std::size_t j = c * per_channel, end = j + per_channel; j < end; ++j)
          out[j] = static_cast<T>(widen(in[j]) * scale[c]);
    }
  });
  return scaled;
}

// New weights and bias for `match`, or nullopt when an operand is not a usable constant.
std::optional<std::pair<Tensor, Tensor>> folded_parameters(const Graph& graph, const ValueUses& uses,
                                                           const ConvBatchNormFusionMatch& match,
                                                           TensorArena& arena) {
  const Node& conv = *match.conv;
  const Node& bn = *match.batch_norm;
  if (bn.inputs.size() < 5) return std::nullopt;
  const auto weights = constant_value(graph, uses, conv.inputs.at(1));
  if (!weights || !is_floating(weights->dtype()) || weights->rank() < 3) return std::nullopt;
  const std::int64_t channels = weights->shape()[0];
  std::vector<std::vector<double>> params;  // scale, bias, mean, var
  for (std::size_t i = 1; i < 5; ++i) {
    const auto value = constant_value(graph, uses, bn.inputs[i]);
    if (!value || value->numel() != channels) return std::nullopt;
    params.push_back(value->to_doubles());
  }
  std::vector<double> bias(static_cast<std::size_t>(channels), 0.0);
  if (conv.inputs.size() > 2 && !conv.inputs[2].empty()) {
    const auto conv_bias = constant_value(graph, uses, conv.inputs[2]);
    if (!conv_bias || conv_bias->numel() != channels) return std::nullopt;
    bias = conv_bias->to_doubles();
  }
  const double epsilon = bn.attributes.get_float("epsilon", 1e-5f);
  std::vector<double> scale(static_cast<std::size_t>(channels));
  for (std::size_t c = 0; c < scale.size(); ++c) {
    scale[c] = params[0][c] / std::sqrt(params[3][c] + epsilon);
    bias[c] = (bias[c] - params[2][c]) * scale[c] + params[1][c];
  }
  return std::pair{scale_channels(*weights, scale, arena), Tensor::from_vector<double>({channels}, bias).cast(weights->dtype())};
}

}  // namespace

PassResult ConvBatchNormFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  Claims claims;
  std::vector<ConvBatchNormFusionMatch> matches;
  for (Node* node : graph.nodes()) {
    if (!is_op(node, "BatchNormalization") || node->inputs.empty()) continue;
    Node* conv = uses.producer(node->inputs[0]);
    if (!is_op(conv, "Conv") || uses.sole_consumer(conv->outputs.at(0)) != node || !inference_form(*node, uses))
      continue;
    if (claims.take({conv, node})) matches.push_back({conv, node});
  }

  std::size_t weight_bytes = 0;
  for (const ConvBatchNormFusionMatch& match : matches)
    if (const auto weights = constant_value(graph, uses, match.conv->inputs.at(1)))
      weight_bytes += TensorArena::footprint(weights->dtype(), weights->shape());
  TensorArena arena(weight_bytes);
  for (const ConvBatchNormFusionMatch& match : matches) {
    ++result.match_times;
    auto parameters = folded_parameters(graph, uses, match, arena);
    if (!parameters) continue;
    // Edited in place (the Conv takes over the BN's output and provenance) rather than through
    // replace_nodes: the order stays topological, and re-sorting per match would cost more than
    // the folding on a large network.
    Node& conv = *match.conv;
    conv.inputs.resize(3);
    conv.inputs[1] = add_initializer(graph, conv.inputs[1] + "_bn", std::move(parameters->first));
    conv.inputs[2] = add_initializer(graph, conv.name + "_bn_bias", std::move(parameters->second));
    conv.outputs[0] = match.batch_norm->outputs[0];
    append_provenance(conv, *match.batch_norm);
    graph.remove_node(match.batch_norm);
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
