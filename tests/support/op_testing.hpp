// Loads the built ops_builtin plugin once and runs one operator definition's kernel, inference or
// cost on a hand-built node named "under_test".
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/op_registry.hpp>

namespace asc::test {

inline const OpDefinition& op_definition(const std::string& op_type, std::int64_t opset) {
  static host::PluginHost plugins({});
  static const bool loaded = (plugins.load_file(ASC_OPS_BUILTIN_PLUGIN), true);
  (void)loaded;
  const OpDefinition* found = plugins.registry().ops().find("", op_type, opset);
  if (found == nullptr) throw std::runtime_error(op_type + " is not registered at opset " + std::to_string(opset));
  return *found;
}

inline Attributes attrs(std::initializer_list<std::pair<std::string, AttributeValue>> values) {
  Attributes result;
  for (const auto& [name, value] : values) result.set(name, value);
  return result;
}

// The node under test: inputs i0, i1, ... ("" where !present[i]), outputs o0, o1, ...
inline Node make_node(const std::string& op_type, const Attributes& attributes, const std::vector<bool>& present,
                      std::size_t outputs) {
  Node node;
  node.name = "under_test";
  node.op_type = op_type;
  node.attributes = attributes;
  for (std::size_t i = 0; i < present.size(); ++i) node.inputs.push_back(present[i] ? "i" + std::to_string(i) : "");
  for (std::size_t i = 0; i < outputs; ++i) node.outputs.push_back("o" + std::to_string(i));
  return node;
}

// One call of `op_type` at `opset`, e.g. OpCall{"Split", 13, attrs({{"axis", std::int64_t{1}}}), 2}.run({x}).
struct OpCall {
  std::string op_type;
  std::int64_t opset = 17;
  Attributes attrs{};
  std::size_t outputs = 1;
  int threads = 1;  // KernelContext::threads
  // KernelContext's SDK 0.5 facts: every output may be channels-last; the state kept between
  // calls (not owned); which inputs are constants.
  bool channels_last_outputs = false;
  KernelState* state = nullptr;
  std::vector<bool> constant_inputs{};
  // SDK 0.6: the epilogue offered to the kernel, and whether the last run() ran it.
  OutputEpilogue output_epilogue{};
  mutable bool output_epilogue_done = false;
  // SDK 0.8: output_epilogue as data.
  std::optional<OutputEpilogueSteps> output_epilogue_steps{};

  OpCall& attr(const std::string& name, AttributeValue value) {
    attrs.set(name, std::move(value));
    return *this;
  }

  // Runs the kernel; an undefined Tensor is an omitted optional input.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs) const {
    std::vector<bool> present;
    std::vector<const Tensor*> pointers;
    for (const Tensor& t : inputs) {
      present.push_back(t.defined());
      pointers.push_back(t.defined() ? &t : nullptr);
    }
    const Node node = make_node(op_type, attrs, present, outputs);
    KernelContext context{node, opset, pointers, std::vector<Tensor>(outputs), threads};
    context.channels_last_outputs.assign(outputs, channels_last_outputs);
    context.state = state;
    context.constant_inputs = constant_inputs;
    context.output_epilogue = output_epilogue;
    context.output_epilogue_steps = output_epilogue_steps;
    op_definition(op_type, opset).compute(context);
    output_epilogue_done = context.output_epilogue_done;
    return context.outputs;
  }
  Tensor run_one(const std::vector<Tensor>& inputs) const { return run(inputs).at(0); }

  // Runs inference; an input of DType::Undefined is omitted; values[i], where given and not null,
  // is input i's known value.
  std::vector<ValueInfo> infer(const std::vector<ValueInfo>& inputs, const std::vector<const Tensor*>& values = {}) const {
    std::vector<bool> present;
    std::vector<const ValueInfo*> pointers;
    for (const ValueInfo& info : inputs) {
      present.push_back(info.dtype != DType::Undefined);
      pointers.push_back(info.dtype != DType::Undefined ? &info : nullptr);
    }
    const Node node = make_node(op_type, attrs, present, outputs);
    std::vector<const Tensor*> known = values;
    known.resize(inputs.size(), nullptr);
    InferenceContext context{node, opset, pointers, known, std::vector<ValueInfo>(outputs)};
    op_definition(op_type, opset).infer(context);
    return context.outputs;
  }
  ValueInfo infer_one(const std::vector<ValueInfo>& inputs, const std::vector<const Tensor*>& values = {}) const {
    return infer(inputs, values).at(0);
  }

  // `target`: the device a backend that models one (npusim) passes; null for the others.
  CostFacts cost(const std::vector<ValueInfo>& inputs, const std::vector<ValueInfo>& output_infos,
                 const KernelTarget* target = nullptr) const {
    const Node node = make_node(op_type, attrs, std::vector<bool>(inputs.size(), true), outputs);
    std::vector<const ValueInfo*> in, out;
    for (const ValueInfo& info : inputs) in.push_back(&info);
    for (const ValueInfo& info : output_infos) out.push_back(&info);
    return op_definition(op_type, opset).cost(CostContext{node, in, out, target});
  }
  // The cost's FLOPs for a device computing at `element_bytes` per element (2: an fp16 NPU).
  double flops_on_device(const std::vector<ValueInfo>& inputs, const std::vector<ValueInfo>& output_infos,
                         std::size_t element_bytes) const {
    KernelTarget target;
    target.element_bytes = element_bytes;
    return cost(inputs, output_infos, &target).flops;
  }
};

// One-expression forms of OpCall for tests that name the op type and opset at every call.
inline std::vector<Tensor> run_op(const std::string& op_type, std::int64_t opset, const std::vector<Tensor>& inputs,
                                  Attributes attributes = {}, std::size_t outputs = 1) {
  return OpCall{op_type, opset, std::move(attributes), outputs}.run(inputs);
}
inline Tensor run_one(const std::string& op_type, std::int64_t opset, const std::vector<Tensor>& inputs,
                      Attributes attributes = {}) {
  return OpCall{op_type, opset, std::move(attributes)}.run_one(inputs);
}
inline std::vector<ValueInfo> infer_op(const std::string& op_type, std::int64_t opset,
                                       const std::vector<ValueInfo>& inputs, Attributes attributes = {},
                                       std::size_t outputs = 1, const std::vector<const Tensor*>& values = {}) {
  return OpCall{op_type, opset, std::move(attributes), outputs}.infer(inputs, values);
}
inline CostFacts cost_op(const std::string& op_type, std::int64_t opset, const std::vector<ValueInfo>& inputs,
                         const std::vector<ValueInfo>& outputs, Attributes attributes = {}) {
  return OpCall{op_type, opset, std::move(attributes), outputs.size()}.cost(inputs, outputs);
}

// The asc::Error `fn` throws (code and message); std::nullopt when it throws none.
inline std::optional<Error> thrown_error(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

// The code of the asc::Error `fn` throws; std::nullopt when it throws none.
inline std::optional<ErrorCode> thrown_code(const std::function<void()>& fn) {
  const std::optional<Error> error = thrown_error(fn);
  if (!error) return std::nullopt;
  return error->code();
}

}  // namespace asc::test
