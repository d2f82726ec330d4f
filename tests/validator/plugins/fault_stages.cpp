// Test-only faults for the whole-network tests: they corrupt one Conv's initializers between
// two reference runs, so that the second run's dump differs from the golden one at that Conv.
//   fault.scale_weights  node, factor: weight and bias times factor (the output is factor x golden)
//   fault.nan_weight     node: the weight's first element becomes NaN
//   fault.wrong_bias     node, delta: every bias element plus delta (the output shifts by delta)
//   fault.transpose_weight node: each filter's kernel transposed (kh <-> kw), a layout slip
#include <asc/sdk/error.hpp>
#include <asc/sdk/plugin.hpp>
#include <cmath>
#include <limits>
#include <string>

namespace {

using asc::Error;
using asc::ErrorCode;

asc::Node& conv_node(asc::Graph& graph, const std::string& name, const char* stage) {
  asc::Node* node = graph.find_node(name);
  if (node == nullptr || node->op_type != "Conv")
    throw Error(ErrorCode::ConfigBadValue,
                std::string(stage) + ": the graph has no Conv named '" + name + "'");
  return *node;
}

// A float32 copy of the initializer feeding `input`, to be modified and put back.
asc::Tensor initializer_copy(const asc::Graph& graph, const std::string& input, const char* stage) {
  const auto it = graph.initializers.find(input);
  if (it == graph.initializers.end() || it->second.dtype() != asc::DType::Float32)
    throw Error(ErrorCode::ConfigBadValue,
                std::string(stage) + ": '" + input + "' is not a float32 initializer");
  return it->second.contiguous().clone();
}

void scale_weights(asc::PipelineContext& ctx, const asc::StageParams& params) {
  constexpr const char* kStage = "fault.scale_weights";
  asc::Graph& graph = ctx.require_graph(kStage);
  const asc::Node& node = conv_node(graph, params.get_string("node"), kStage);
  const auto factor = static_cast<float>(params.get_float("factor"));
  for (std::size_t i = 1; i < node.inputs.size() && i <= 2; ++i) {
    if (node.inputs[i].empty()) continue;
    asc::Tensor scaled = initializer_copy(graph, node.inputs[i], kStage);
    for (float& v : scaled.span<float>()) v *= factor;
    graph.initializers[node.inputs[i]] = scaled;
  }
}

void nan_weight(asc::PipelineContext& ctx, const asc::StageParams& params) {
  constexpr const char* kStage = "fault.nan_weight";
  asc::Graph& graph = ctx.require_graph(kStage);
  const asc::Node& node = conv_node(graph, params.get_string("node"), kStage);
  asc::Tensor weight = initializer_copy(graph, node.inputs.at(1), kStage);
  weight.span<float>()[0] = std::numeric_limits<float>::quiet_NaN();
  graph.initializers[node.inputs[1]] = weight;
}

void wrong_bias(asc::PipelineContext& ctx, const asc::StageParams& params) {
  constexpr const char* kStage = "fault.wrong_bias";
  asc::Graph& graph = ctx.require_graph(kStage);
  const asc::Node& node = conv_node(graph, params.get_string("node"), kStage);
  if (node.inputs.size() < 3 || node.inputs[2].empty())
    throw Error(ErrorCode::ConfigBadValue, std::string(kStage) + ": '" + node.name + "' has no bias");
  asc::Tensor bias = initializer_copy(graph, node.inputs[2], kStage);
  const auto delta = static_cast<float>(params.get_float("delta"));
  for (float& v : bias.span<float>()) v += delta;
  graph.initializers[node.inputs[2]] = bias;
}

void transpose_weight(asc::PipelineContext& ctx, const asc::StageParams& params) {
  constexpr const char* kStage = "fault.transpose_weight";
  asc::Graph& graph = ctx.require_graph(kStage);
  const asc::Node& node = conv_node(graph, params.get_string("node"), kStage);
  const asc::Tensor original = initializer_copy(graph, node.inputs.at(1), kStage);
  const asc::Shape& shape = original.shape();
  if (shape.size() != 4 || shape[2] != shape[3])
    throw Error(ErrorCode::ConfigBadValue, std::string(kStage) + ": '" + node.name + "' needs a square 2-D kernel");
  asc::Tensor transposed = original.clone();
  const std::int64_t k = shape[2], filters = shape[0] * shape[1];
  const auto in = original.span<float>();
  auto out = transposed.span<float>();
  for (std::int64_t f = 0; f < filters; ++f)
    for (std::int64_t y = 0; y < k; ++y)
      for (std::int64_t x = 0; x < k; ++x) out[(f * k + x) * k + y] = in[(f * k + y) * k + x];
  graph.initializers[node.inputs[1]] = transposed;
}

}  // namespace

ASC_PLUGIN("fault", "1.0.0", 0, "Test-only faults planted in a Conv's weights (validator tests)") {
  registrar.add_stage({"fault.scale_weights",
                       "multiply a Conv's weight and bias initializers by factor",
                       {{"node", asc::ParamType::String, true, "", "the Conv node"},
                        {"factor", asc::ParamType::Float, true, "", "the factor"}},
                       scale_weights,
                       {}});
  registrar.add_stage({"fault.nan_weight",
                       "set the first element of a Conv's weight to NaN",
                       {{"node", asc::ParamType::String, true, "", "the Conv node"}},
                       nan_weight,
                       {}});
  registrar.add_stage({"fault.wrong_bias",
                       "add delta to every element of a Conv's bias",
                       {{"node", asc::ParamType::String, true, "", "the Conv node"},
                        {"delta", asc::ParamType::Float, true, "", "added to each bias element"}},
                       wrong_bias,
                       {}});
  registrar.add_stage({"fault.transpose_weight",
                       "transpose each filter of a Conv's weight (kernel rows <-> columns)",
                       {{"node", asc::ParamType::String, true, "", "the Conv node"}},
                       transpose_weight,
                       {}});
}
