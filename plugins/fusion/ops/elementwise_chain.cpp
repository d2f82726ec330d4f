// asc.ElementwiseChain(inputs...) -> Y: consecutive elementwise operators run as one vector
// kernel (the NPU's UB fusion: intermediate results stay in the unified buffer). Attribute
// "body" is a graph of the original nodes; its inputs bind to the node's inputs by position and
// its single output is Y. Made by ElementwiseChainFusion; each step runs the registered kernel
// of its operator at the opset the body imports.
#include <climits>
#include <string>
#include <unordered_map>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/op_registry.hpp>

#include <asc/sdk/op_cost.hpp>
#include "ops/inner_ops.hpp"

namespace asc::fusion {
namespace {

const Graph& body_of(const Node& node, std::size_t input_count) {
  const Graph& body = *node.attributes.require_graph("body");
  if (body.inputs.size() != input_count || body.outputs.size() != 1)
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": body has " + std::to_string(body.inputs.size()) +
                                                " input(s) and " + std::to_string(body.outputs.size()) +
                                                " output(s); the node has " + std::to_string(input_count) +
                                                " input(s) and needs exactly one output");
  return body;
}

template <class T> const T* lookup(const std::unordered_map<std::string, T>& values, const std::string& name,
                                   const Node& node) {
  if (name.empty()) return nullptr;
  const auto it = values.find(name);
  if (it == values.end())
    throw Error(ErrorCode::InvalidOperator, node.describe() + ": body reads '" + name + "', which nothing defines");
  return &it->second;
}

void elementwise_chain_compute(KernelContext& context) {
  const Graph& body = body_of(context.node, context.input_count());
  std::unordered_map<std::string, Tensor> values;
  for (std::size_t i = 0; i < body.inputs.size(); ++i) values[body.inputs[i]] = context.input(i);
  for (const Node* step : body.nodes()) {
    std::vector<const Tensor*> inputs;
    for (const auto& name : step->inputs) inputs.push_back(lookup(values, name, context.node));
    std::vector<Tensor> outputs = run_node(context.node, *step, body.opset(step->domain), inputs, context.threads);
    for (std::size_t i = 0; i < outputs.size(); ++i)
      if (!step->outputs[i].empty()) values[step->outputs[i]] = std::move(outputs[i]);
  }
  context.outputs[0] = *lookup(values, body.outputs[0], context.node);
}

void elementwise_chain_infer(InferenceContext& context) {
  const Graph& body = body_of(context.node, context.inputs.size());
  std::unordered_map<std::string, ValueInfo> infos;
  std::unordered_map<std::string, Tensor> known;
  for (std::size_t i = 0; i < body.inputs.size(); ++i) {
    infos[body.inputs[i]] = context.input(i);
    if (const Tensor* value = context.input_value(i)) known[body.inputs[i]] = *value;
  }
  for (const Node* step : body.nodes()) {
    std::vector<const ValueInfo*> inputs;
    std::vector<const Tensor*> values;
    for (const auto& name : step->inputs) {
      inputs.push_back(lookup(infos, name, context.node));
      const auto it = known.find(name);
      values.push_back(it == known.end() ? nullptr : &it->second);
    }
    std::vector<ValueInfo> outputs = infer_node(context.node, *step, body.opset(step->domain), inputs, values);
    for (std::size_t i = 0; i < outputs.size(); ++i)
      if (!step->outputs[i].empty()) infos[step->outputs[i]] = std::move(outputs[i]);
  }
  const ValueInfo& y = *lookup(infos, body.outputs[0], context.node);
  context.outputs[0].dtype = y.dtype;
  context.outputs[0].shape = y.shape;
}

// The steps' arithmetic, but memory traffic only for the chain's inputs and its one output.
CostFacts elementwise_chain_cost(const CostContext& context) {
  const Graph& body = body_of(context.node, context.inputs.size());
  double flops = 0;
  for (const Node* step : body.nodes()) {
    std::vector<const ValueInfo*> inputs;
    std::vector<const ValueInfo*> outputs;
    for (const auto& name : step->inputs) inputs.push_back(name.empty() ? nullptr : body.value_info(name));
    for (const auto& name : step->outputs) outputs.push_back(name.empty() ? nullptr : body.value_info(name));
    flops += cost_node(context.node, *step, body.opset(step->domain), inputs, outputs, context.target).flops;
  }
  return {flops, input_bytes(context), output_bytes(context), ComputeUnit::Vector};
}

}  // namespace

ASC_REGISTER_OP("asc", "ElementwiseChain", 1, INT_MAX, elementwise_chain_infer, elementwise_chain_compute,
                elementwise_chain_cost);

}  // namespace asc::fusion
