#include "ops/inner_ops.hpp"

#include <memory>

#include <asc/sdk/error.hpp>
#include <asc/sdk/kernel_state.hpp>

namespace asc::fusion {
namespace {

const OpRegistry* bound_registry = nullptr;

const OpDefinition& definition_for(const Node& fused, const Node& node, std::int64_t opset) {
  const OpDefinition* definition =
      bound_registry != nullptr ? bound_registry->find(node.domain, node.op_type, opset) : nullptr;
  if (definition == nullptr)
    throw Error(ErrorCode::UnsupportedOperator,
                fused.describe() + " is built from operator " + (node.domain.empty() ? "" : node.domain + ".") +
                    node.op_type + " (opset " + std::to_string(opset) +
                    "), which no loaded plugin registers: load the operator library (ops_builtin) too");
  return *definition;
}

std::vector<bool> presence(const std::vector<const Tensor*>& inputs) {
  std::vector<bool> present;
  for (const Tensor* input : inputs) present.push_back(input != nullptr);
  return present;
}

std::vector<bool> presence(const std::vector<const ValueInfo*>& inputs) {
  std::vector<bool> present;
  for (const ValueInfo* input : inputs) present.push_back(input != nullptr);
  return present;
}

// run_inner_step's inner node, definition and the inner kernel's own kept state.
struct PreparedInnerStep {
  Node node;
  std::vector<bool> present;  // node's inputs present, as built
  const OpDefinition* definition = nullptr;
  KernelState state;
};

}  // namespace

void bind_inner_op_registry(const OpRegistry& ops) { bound_registry = &ops; }

Node make_inner_node(const Node& fused, const std::string& op_type, Attributes attributes,
                     const std::vector<bool>& present_inputs, std::size_t outputs) {
  Node node;
  node.name = fused.name + "/" + op_type;
  node.op_type = op_type;
  node.attributes = std::move(attributes);
  node.attributes.set_owner(node.describe());
  for (std::size_t i = 0; i < present_inputs.size(); ++i)
    node.inputs.push_back(present_inputs[i] ? node.name + ":in" + std::to_string(i) : std::string());
  for (std::size_t i = 0; i < outputs; ++i) node.outputs.push_back(node.name + ":out" + std::to_string(i));
  return node;
}

std::vector<Tensor> run_node(const Node& fused, const Node& node, std::int64_t opset,
                             const std::vector<const Tensor*>& inputs, int threads) {
  const OpDefinition& definition = definition_for(fused, node, opset);
  if (!definition.compute)
    throw Error(ErrorCode::UnsupportedOperator, fused.describe() + " needs a kernel for " + node.op_type +
                                                    ", but plugin '" + definition.plugin + "' registers none");
  KernelContext context{node, opset, inputs, std::vector<Tensor>(node.outputs.size()), threads};
  definition.compute(context);
  return std::move(context.outputs);
}

std::vector<ValueInfo> infer_node(const Node& fused, const Node& node, std::int64_t opset,
                                  const std::vector<const ValueInfo*>& inputs,
                                  const std::vector<const Tensor*>& input_values) {
  const OpDefinition& definition = definition_for(fused, node, opset);
  std::vector<ValueInfo> outputs;
  for (const auto& name : node.outputs) outputs.push_back(ValueInfo{name, DType::Undefined, std::nullopt});
  InferenceContext context{node, opset, inputs, input_values, std::move(outputs)};
  if (definition.infer) definition.infer(context);
  return std::move(context.outputs);
}

CostFacts cost_node(const Node& fused, const Node& node, std::int64_t opset,
                    const std::vector<const ValueInfo*>& inputs, const std::vector<const ValueInfo*>& outputs,
                    const KernelTarget* target) {
  const OpDefinition& definition = definition_for(fused, node, opset);
  if (!definition.cost) return {};
  return definition.cost(CostContext{node, inputs, outputs, target});
}

Tensor run_inner(const Node& fused, const std::string& op_type, const std::vector<const Tensor*>& inputs, int threads,
                 Attributes attributes) {
  const Node node = make_inner_node(fused, op_type, std::move(attributes), presence(inputs));
  return std::move(run_node(fused, node, kInnerOpset, inputs, threads).front());
}

InnerStep run_inner_step(const KernelContext& fused, const std::string& op_type, const std::vector<const Tensor*>& inputs,
                         Attributes (*attributes)(const Node& fused), OutputEpilogue epilogue,
                         std::optional<OutputEpilogueSteps> steps) {
  const auto prepare = [&] {
    auto step = std::make_shared<PreparedInnerStep>();
    step->present = presence(inputs);
    step->node = make_inner_node(fused.node, op_type, attributes != nullptr ? attributes(fused.node) : Attributes{},
                                 step->present);
    step->definition = &definition_for(fused.node, step->node, kInnerOpset);
    if (!step->definition->compute)
      throw Error(ErrorCode::UnsupportedOperator, fused.node.describe() + " needs a kernel for " + op_type +
                                                      ", but plugin '" + step->definition->plugin + "' registers none");
    return step;
  };
  // Kept only while it fits this call: the same operator, and the same inputs present.
  std::shared_ptr<PreparedInnerStep> made;
  PreparedInnerStep* step = nullptr;
  if (fused.state != nullptr) {
    step = &fused.state->get<PreparedInnerStep>(prepare);
    if (step->node.op_type != op_type || presence(inputs) != step->present) step = nullptr;
  }
  if (step == nullptr) step = (made = prepare()).get();
  KernelContext context{step->node, kInnerOpset, inputs, std::vector<Tensor>(1), fused.threads, fused.device_dtype};
  for (std::size_t i = 0; i < inputs.size(); ++i) context.constant_inputs.push_back(fused.input_is_constant(i));
  context.channels_last_outputs = {fused.may_output_channels_last(0)};
  context.state = made == nullptr ? &step->state : nullptr;
  context.output_epilogue = std::move(epilogue);
  if (context.output_epilogue) context.output_epilogue_steps = std::move(steps);
  step->definition->compute(context);
  return {std::move(context.outputs.front()), context.output_epilogue_done};
}

ValueInfo infer_inner(const Node& fused, const std::string& op_type, const std::vector<const ValueInfo*>& inputs,
                      const std::vector<const Tensor*>& input_values, Attributes attributes) {
  const Node node = make_inner_node(fused, op_type, std::move(attributes), presence(inputs));
  return std::move(infer_node(fused, node, kInnerOpset, inputs, input_values).front());
}

CostFacts cost_inner(const CostContext& fused, const std::string& op_type, const std::vector<const ValueInfo*>& inputs,
                     Attributes attributes) {
  const Node node = make_inner_node(fused.node, op_type, std::move(attributes), presence(inputs));
  return cost_node(fused.node, node, kInnerOpset, inputs, {fused.outputs.at(0)}, fused.target);
}

}  // namespace asc::fusion
