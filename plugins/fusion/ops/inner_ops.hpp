// The fused operators are made of ordinary ones: their kernels, shape inference and cost facts
// call the registered definitions of those (Conv, MatMul, Softmax, ...) instead of
// re-implementing them, so a fused node computes exactly what its parts did.
//
// KernelContext carries no registry, so the plugin binds the registry it registers its fused
// operators into (PluginRegistrar::registry()) when it loads; lookups happen at call time, so
// the operator library may load after this plugin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <asc/sdk/op_registry.hpp>

namespace asc::fusion {

void bind_inner_op_registry(const OpRegistry& ops);

// The default-domain version inner operators are looked up at. Every operator used this way has
// the same semantics at 17 as at any version from 11 (the lowest a parsed graph has) on.
inline constexpr std::int64_t kInnerOpset = 17;

// A node of `op_type` (default domain) standing for one step of `fused`, with `inputs` present
// or omitted as given and `outputs` outputs; named after `fused` so errors point at it.
Node make_inner_node(const Node& fused, const std::string& op_type, Attributes attributes,
                     const std::vector<bool>& present_inputs, std::size_t outputs = 1);

// Runs `node` (its own domain, at `opset`) with the registered kernel. Throws EE2001 naming
// `fused` when no loaded plugin registers the operator.
std::vector<Tensor> run_node(const Node& fused, const Node& node, std::int64_t opset,
                             const std::vector<const Tensor*>& inputs, int threads);
std::vector<ValueInfo> infer_node(const Node& fused, const Node& node, std::int64_t opset,
                                  const std::vector<const ValueInfo*>& inputs,
                                  const std::vector<const Tensor*>& input_values);
// `target`: the device the fused operator is costed for (CostContext::target), which the inner
// operator's cost sees too (Softmax and LayerNormalization count their fp32 steps on fp16 devices).
CostFacts cost_node(const Node& fused, const Node& node, std::int64_t opset,
                    const std::vector<const ValueInfo*>& inputs, const std::vector<const ValueInfo*>& outputs,
                    const KernelTarget* target);

// Shorthands for a default-domain operator at kInnerOpset with one output.
Tensor run_inner(const Node& fused, const std::string& op_type, const std::vector<const Tensor*>& inputs, int threads,
                 Attributes attributes = {});
// run_inner as the fused node's own step: the inner kernel runs with `fused`'s threads, device
// dtype and kept state (a KernelState of its own inside the fused node's: only one inner kernel
// of a fused node may keep any), the constant facts of the inputs it shares with the fused node
// (inputs[i] is the fused node's input i) and the fused output's layout permission (its output
// is the fused output). `epilogue` is offered to the inner kernel as its
// KernelContext::output_epilogue, with `steps` as its description (output_epilogue_steps);
// `epilogue_done` says whether the kernel ran it.
// The inner node (from attributes(fused node), nullptr: none) and its definition are built on
// the first call and kept in the fused node's KernelState: building them took about 10 us a call,
// on one thread while the others wait (ResNet-50 b1: 53 FusedConvs a run).
struct InnerStep {
  Tensor output;
  bool epilogue_done = false;
};
InnerStep run_inner_step(const KernelContext& fused, const std::string& op_type, const std::vector<const Tensor*>& inputs,
                         Attributes (*attributes)(const Node& fused) = nullptr, OutputEpilogue epilogue = {},
                         std::optional<OutputEpilogueSteps> steps = std::nullopt);
ValueInfo infer_inner(const Node& fused, const std::string& op_type, const std::vector<const ValueInfo*>& inputs,
                      const std::vector<const Tensor*>& input_values, Attributes attributes = {});
CostFacts cost_inner(const CostContext& fused, const std::string& op_type, const std::vector<const ValueInfo*>& inputs,
                     Attributes attributes = {});

}  // namespace asc::fusion
