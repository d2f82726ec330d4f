// Operator definitions and the registry they live in.
//
// An operator is keyed the way ONNX keys it: (domain, op type, opset range). Each definition
// gives shape/type inference, a reference kernel, and the cost facts the NPU simulator uses.
// In-tree and third-party operator plugins register through the same ASC_REGISTER_OP macro:
//
//   ASC_REGISTER_OP("", "Relu", 6, 13, relu::infer, relu::compute, relu::cost);
//
// and pass the collected definitions to the registry in their plugin entry point with
// `registrar.add_collected_ops()` (see plugin.hpp).
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "asc/sdk/graph.hpp"
#include "asc/sdk/kernel_state.hpp"
#include "asc/sdk/kernel_tiling.hpp"
#include "asc/sdk/tensor.hpp"

namespace asc {

// The NPU unit that runs an operator: Cube (matrix: Conv, MatMul, Gemm), Vector (elementwise,
// reductions, normalisation), Scalar (control-heavy: TopK, NMS), or None (metadata only:
// Reshape, Shape: no data moves when the layout allows it).
enum class ComputeUnit : std::uint8_t { Cube, Vector, Scalar, None };
std::string_view compute_unit_name(ComputeUnit unit);

struct CostFacts {
  double flops = 0;              // multiply and add count 2 for a MAC
  std::int64_t bytes_read = 0;   // input and weight bytes at the operator's dtypes
  std::int64_t bytes_written = 0;
  ComputeUnit unit = ComputeUnit::Vector;
  // Since SDK 0.4: the tiling the operator chose for CostContext::target (self-scheduling
  // operators such as the TBE DSL's); the backend uses it instead of its own tiler.
  std::optional<KernelTiling> tiling;
};

// Since SDK 0.5: which inputs of an operator its kernel takes channels-last (bit i: input i).
//
// Channels-last is a layout of an [N, C, spatial...] tensor (channels_last_strides(): NHWC in
// memory for NCHW), not another shape. A backend built on the execution plan keeps a kernel's
// output channels-last only when every reader of that value declares the input channels-last
// here and the value is not a graph output; every other input reaches its kernel contiguous, as
// before. A kernel that declares an input must compute right for it in either layout (calling
// Tensor::contiguous() where it has no channels-last path), and may produce an output
// channels-last when KernelContext::may_output_channels_last() says its readers take it.
using InputMask = std::uint64_t;
inline constexpr InputMask kChannelsLastInput0 = 1;
inline constexpr InputMask kChannelsLastAllInputs = ~InputMask{0};

// Since SDK 0.6: elementwise work on a kernel's output 0 in place, on its elements [begin, end)
// counted in memory order from the output's first element (see KernelContext::output_epilogue).
using OutputEpilogue = std::function<void(Tensor& output, std::int64_t begin, std::int64_t end)>;

// Since SDK 0.8: what an OutputEpilogue does, as data, for a kernel that can fold it into its own
// stores instead of a second pass over its output: y = activation(y + addend), rounded to fp16
// where round_to_f16 says (the NPU simulator's storage), then `then` on the same ranges. The addend is output 0's residual (asc.FusedConv's Add); its shape, dtype and
// strides are the caller's, and a kernel folds it in only where they equal output 0's.
struct OutputEpilogueSteps {
  enum class Activation { None, Relu, Clip };
  const Tensor* addend = nullptr;  // nullptr: no addition
  // The caller gives the addend's buffer up (KernelContext::input_is_reusable): a kernel that
  // folds the steps in may compute output 0 in place over the addend, in that buffer.
  bool addend_reusable = false;
  Activation activation = Activation::None;
  float low = 0, high = 0;  // Clip's bounds (the dtype's extremes where the model omits one)
  // Then each element rounded to the nearest float16 (ties to even) and kept as float32, as the
  // SDK's round_to_f16 does.
  bool round_to_f16 = false;
  // The rest, run on each range after the steps above (the NPU simulator's rounding to fp16);
  // empty when there is none.
  OutputEpilogue then;

  // Whether a kernel may fold the steps into its stores to a float32 output of this shape and
  // these strides: no addend, or a float32 one laid out the same.
  bool foldable_into(const Shape& shape, const Shape& strides) const {
    return addend == nullptr ||
           (addend->dtype() == DType::Float32 && addend->shape() == shape && addend->strides() == strides);
  }
};

// The steps' addition, activation and rounding on y[0, n) in place, with addend[0, n) (nullptr:
// none, or already added): what a kernel runs for the part of the steps it does not fold into its
// own stores. The activation is the Relu and Clip kernels': NaN stays NaN. Not `then`.
void apply_epilogue_steps(const OutputEpilogueSteps& steps, float* y, const float* addend, std::int64_t n);

// What a kernel sees when it runs. Inputs are borrowed for the call; the kernel sets every
// output (outputs.size() == node.outputs.size(); leave an omitted output undefined).
struct KernelContext {
  const Node& node;
  std::int64_t opset;
  std::vector<const Tensor*> inputs;  // nullptr for an omitted optional input
  std::vector<Tensor> outputs;
  // Threads the kernel may use (backends decide; 1 for the reference backend by default);
  // asc::parallel_for (parallel.hpp) runs work on them.
  int threads = 1;
  // Since SDK 0.4: the dtype the device computes this task at (Float16 on the NPU simulator
  // under fp16 precision, whose tensors stay float32 on the host); Undefined on backends that
  // compute at the host dtype. Kernels that reproduce the device's numerics read it.
  DType device_dtype = DType::Undefined;
  // Since SDK 0.5 (empty vectors and a null state where the caller knows nothing of this):
  // Per input: the value is a constant of the plan (an initializer), the same tensor at every run.
  std::vector<bool> constant_inputs;
  // Per output: every reader takes it channels-last (see InputMask) and it is no graph output.
  std::vector<bool> channels_last_outputs;
  // What the kernel keeps for this step between runs (kernel_state.hpp); nullptr: keep nothing.
  KernelState* state = nullptr;
  // Since SDK 0.6: what the caller does to output 0 after the kernel (a fused activation, the
  // NPU simulator's rounding to fp16), offered so that a kernel can do it while the data is
  // still in cache. A kernel may call it from its threads on contiguous ranges of output 0's
  // memory as soon as each is final, every element exactly once, and then set
  // output_epilogue_done; a kernel that does not leaves the flag false and the caller runs the
  // epilogue itself. Empty when there is nothing to do.
  OutputEpilogue output_epilogue;
  bool output_epilogue_done = false;
  // Since SDK 0.8: when set, output_epilogue is exactly these steps. A kernel may then do them
  // itself instead of calling output_epilogue: add the addend and apply the activation as it
  // stores each element, call `then` on contiguous ranges as they become final (every element
  // once), and set output_epilogue_done. Only where the addend (if any) is float32 with output
  // 0's shape and strides; otherwise it calls output_epilogue, or leaves the epilogue undone.
  std::optional<OutputEpilogueSteps> output_epilogue_steps;
  // Since SDK 0.8: per input, whether the caller gives its value up after this call: the step is
  // its last reader, and it is no graph input, output or constant, nor another input of the
  // step. Empty where the caller knows nothing of this. See input_is_reusable.
  std::vector<bool> reusable_inputs;

  std::size_t input_count() const noexcept { return inputs.size(); }
  bool input_is_constant(std::size_t i) const noexcept { return i < constant_inputs.size() && constant_inputs[i]; }
  bool may_output_channels_last(std::size_t i) const noexcept {
    return i < channels_last_outputs.size() && channels_last_outputs[i];
  }
  bool has_input(std::size_t i) const noexcept { return i < inputs.size() && inputs[i] != nullptr; }
  // Whether a kernel may store an output into input i's buffer (one of the output's dtype, shape
  // and layout): the caller gives the value up (reusable_inputs), the SDK allocated the buffer
  // (Buffer::owned: no borrowed memory) and no one else holds it.
  bool input_is_reusable(std::size_t i) const noexcept {
    return has_input(i) && i < reusable_inputs.size() && reusable_inputs[i] && inputs[i]->buffer() != nullptr &&
           inputs[i]->buffer()->owned() && inputs[i]->buffer().use_count() == 1;
  }
  // Throws EE2003 naming the node when input i is absent.
  const Tensor& input(std::size_t i) const;
  const Attributes& attrs() const noexcept { return node.attributes; }
};

// What shape/type inference sees: input types and, where they are constants (initializers,
// Constant outputs), their values, as ONNX's data propagation does for Reshape and friends.
struct InferenceContext {
  const Node& node;
  std::int64_t opset;
  std::vector<const ValueInfo*> inputs;     // nullptr for an omitted optional input
  std::vector<const Tensor*> input_values;  // nullptr where the value is not known
  std::vector<ValueInfo> outputs;           // inference fills dtype and shape; names are preset

  bool has_input(std::size_t i) const noexcept { return i < inputs.size() && inputs[i] != nullptr; }
  const ValueInfo& input(std::size_t i) const;
  const Tensor* input_value(std::size_t i) const noexcept {
    return i < input_values.size() ? input_values[i] : nullptr;
  }
  const Attributes& attrs() const noexcept { return node.attributes; }
};

// What the cost model sees: the node with static input and output types.
struct CostContext {
  const Node& node;
  std::vector<const ValueInfo*> inputs;
  std::vector<const ValueInfo*> outputs;
  // Since SDK 0.4: the device the task is compiled for, when the backend models one (npusim);
  // nullptr otherwise.
  const KernelTarget* target = nullptr;
};

using InferFunction = std::function<void(InferenceContext&)>;
using KernelFunction = std::function<void(KernelContext&)>;
using CostFunction = std::function<CostFacts(const CostContext&)>;

// Since SDK 0.4: what an operator's device kernel supports, for the NPU compiler's op-info (CANN's
// aic-<soc>-ops-info.json entry; configs/soc/ops_info/ for the built-in operators): its dtypes per
// SoC version, "*" for every SoC not listed. No entry for a SoC: the op-info file's default.
struct OpKernelInfo {
  std::map<std::string, std::vector<DType>> dtypes;
  const std::vector<DType>* dtypes_for(const std::string& soc_version) const {
    auto found = dtypes.find(soc_version);
    if (found == dtypes.end()) found = dtypes.find("*");
    return found == dtypes.end() ? nullptr : &found->second;
  }
};

struct OpDefinition {
  std::string domain;  // "" for ai.onnx
  std::string op_type;
  std::int64_t since_version = 1;
  std::int64_t end_version = INT_MAX;  // inclusive
  InferFunction infer;
  KernelFunction compute;
  CostFunction cost;
  std::string plugin;  // filled in by the registry: which plugin registered it
  OpKernelInfo kernel_info;  // since SDK 0.4
  InputMask channels_last_inputs = 0;  // since SDK 0.5
};

// Definitions by key. Later registrations for an overlapping key are refused (EE6007) so that
// no plugin silently replaces another's kernel.
class OpRegistry {
 public:
  void add(OpDefinition definition);
  // The definition that covers `opset` for (domain, op_type), or nullptr.
  const OpDefinition* find(const std::string& domain, const std::string& op_type, std::int64_t opset) const;
  // Any version of (domain, op_type) registered?
  bool knows(const std::string& domain, const std::string& op_type) const;
  const std::vector<OpDefinition>& all() const noexcept { return definitions_; }
  // Drops the definitions `plugin` registered.
  void remove_plugin(const std::string& plugin);

 private:
  std::vector<OpDefinition> definitions_;
};

// Resolves the definition for a node of `graph`, using the graph's opset for the node's domain.
const OpDefinition* find_op(const OpRegistry& registry, const Graph& graph, const Node& node);

// Every node without a kernel, listed at once (name, op type, domain, opset, input dtypes and
// shapes) in one EE2001 error. Does nothing when all are covered.
void check_all_ops_supported(const OpRegistry& registry, const Graph& graph);

namespace detail {
// Per plugin library: definitions collected by ASC_REGISTER_OP in this shared object. Hidden
// visibility gives every plugin its own list even if it is built without -fvisibility=hidden.
__attribute__((visibility("hidden"))) inline std::vector<OpDefinition>& collected_ops() {
  static std::vector<OpDefinition> ops;
  return ops;
}
struct OpCollector {
  OpCollector(OpDefinition definition) { collected_ops().push_back(std::move(definition)); }
};
}  // namespace detail

}  // namespace asc

#define ASC_OP_CONCAT_IMPL(a, b) a##b
#define ASC_OP_CONCAT(a, b) ASC_OP_CONCAT_IMPL(a, b)

// Registers an operator definition with this plugin's collected list (see header comment).
#define ASC_REGISTER_OP(DOMAIN, OP_TYPE, SINCE, END, INFER, COMPUTE, COST)                           \
  static const ::asc::detail::OpCollector ASC_OP_CONCAT(asc_op_collector_, __COUNTER__)(              \
      ::asc::OpDefinition{DOMAIN, OP_TYPE, SINCE, END, INFER, COMPUTE, COST, {}})

// Since SDK 0.5: ASC_REGISTER_OP for a kernel that takes the inputs of INPUTS (an InputMask)
// channels-last as well.
#define ASC_REGISTER_OP_CHANNELS_LAST(DOMAIN, OP_TYPE, SINCE, END, INFER, COMPUTE, COST, INPUTS)        \
  static const ::asc::detail::OpCollector ASC_OP_CONCAT(asc_op_collector_, __COUNTER__)(              \
      ::asc::OpDefinition{DOMAIN, OP_TYPE, SINCE, END, INFER, COMPUTE, COST, {}, {}, INPUTS})
