#include "passes/conv_bias_add_fusion.hpp"

#include <optional>
#include <vector>

#include "core/claims.hpp"
#include "core/constant_values.hpp"
#include "core/graph_edits.hpp"
#include "core/op_traits.hpp"
#include "core/pattern_helpers.hpp"
#include "core/value_uses.hpp"

namespace asc::fusion {
namespace {

struct ConvBiasAddFusionMatch {
  Node* conv;
  Node* add;
  std::string addend;
};

// The addend as one value per output channel, when it broadcasts only along the channel axis
// (axis 1 of the Conv's output) and leaves the output's shape unchanged.
std::optional<std::vector<double>> per_channel(const Tensor& addend, std::size_t output_rank, std::int64_t channels) {
  const Shape& shape = addend.shape();
  if (shape.size() > output_rank) return std::nullopt;
  const std::size_t offset = output_rank - shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::size_t axis = offset + i;
    if (shape[i] != 1 && !(axis == 1 && shape[i] == channels)) return std::nullopt;
  }
  std::vector<double> values = addend.to_doubles();
  if (values.size() == 1) values.assign(static_cast<std::size_t>(channels), values[0]);
  return values;
}

}  // namespace

PassResult ConvBiasAddFusion::run(Graph& graph, const PassContext&) const {
  PassResult result;
  const ValueUses uses(graph);
  Claims claims;
  std::vector<ConvBiasAddFusionMatch> matches;
  for (Node* conv : graph.nodes()) {
    if (!is_op(conv, "Conv")) continue;
    Node* add = uses.sole_consumer(conv->outputs.at(0));
    if (!is_op(add, "Add")) continue;
    const auto addend = other_operand(*add, conv->outputs[0]);
    if (!addend || !is_constant(graph, uses, *addend)) continue;
    if (claims.take({conv, add})) matches.push_back({conv, add, *addend});
  }

  for (const ConvBiasAddFusionMatch& match : matches) {
    ++result.match_times;
    const auto channels = conv_output_channels(graph, *match.conv);
    const auto rank = value_rank(graph, match.conv->outputs[0]);
    const Tensor addend = *constant_value(graph, uses, match.addend);
    const DType dtype = value_dtype(graph, match.conv->inputs[1]);
    if (!channels || !rank || addend.dtype() != dtype) continue;
    auto bias = per_channel(addend, *rank, *channels);
    if (!bias) continue;
    const Node& conv = *match.conv;
    if (conv.inputs.size() > 2 && !conv.inputs[2].empty()) {
      const auto existing = constant_value(graph, uses, conv.inputs[2]);
      if (!existing || existing->numel() != *channels) continue;
      const std::vector<double> old = existing->to_doubles();
      for (std::size_t c = 0; c < bias->size(); ++c) (*bias)[c] += old[c];
    }
    const std::string bias_name = add_initializer(
        graph, conv.name + "_bias", Tensor::from_vector<double>({*channels}, *bias).cast(dtype));
    Node folded{conv.name, "Conv", "", conv.attributes, {conv.inputs[0], conv.inputs[1], bias_name},
                {match.add->outputs[0]}, {}};
    graph.replace_nodes(std::vector<Node*>{match.conv, match.add}, std::move(folded));
    ++result.effect_times;
  }
  return result;
}

}  // namespace asc::fusion
