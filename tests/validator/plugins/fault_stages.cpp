// Test-only faults for the whole-network tests: they corrupt one Conv's initializers between
// two reference runs, so that the second run's dump differs from the golden one at that Conv.
//   fault.scale_weights  node, factor: weight and bias times factor (the output is factor x golden)
//   fault.nan_weight     node: the weight's first element becomes NaN
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
}
