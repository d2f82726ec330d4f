#include "asc/sdk/backend/output_check.hpp"

#include <exception>

#include "asc/sdk/error.hpp"

namespace asc {
namespace {

bool dtype_fits(DType declared, DType produced, DType device) {
  if (declared == DType::Undefined || produced == declared) return true;
  // A device run (the simulator) holds float32 values at fp16 where the precision mode says so,
  // and its kernels (and the Casts its compiler inserts) may hand back that fp16; the host stores
  // it as float32.
  return device != DType::Undefined && declared == DType::Float32 && produced == DType::Float16;
}

bool shape_fits(const std::optional<std::vector<Dim>>& declared, const Shape& produced) {
  if (!declared) return true;
  if (declared->size() != produced.size()) return false;
  for (std::size_t i = 0; i < produced.size(); ++i)
    if ((*declared)[i].is_static() && (*declared)[i].value != produced[i]) return false;
  return true;
}

bool incomplete(const ValueInfo* info) {
  return info == nullptr || info->dtype == DType::Undefined || !info->shape;
}

// The operator's own inference over the inputs the kernel was given, for graphs that were never
// inferred with the operator plugins (ONNX's inference does not know a custom domain's ops).
// Empty when the operator has none or declines (a coded error); a plugin inference that throws
// anything else is EE1005 naming the node and the plugin, as at compile time.
std::vector<ValueInfo> infer_from_inputs(const PlanStep& step, const KernelContext& context,
                                         const Graph& graph) {
  const Node& node = *step.node;
  if (step.op == nullptr || !step.op->infer) return {};
  std::vector<ValueInfo> infos;
  infos.reserve(context.inputs.size());
  std::vector<const ValueInfo*> inputs;
  std::vector<const Tensor*> values;
  for (std::size_t i = 0; i < context.inputs.size(); ++i) {
    const Tensor* tensor = context.inputs[i];
    if (tensor != nullptr)
      infos.push_back(ValueInfo::from_shape(node.inputs[i], tensor->dtype(), tensor->shape()));
    inputs.push_back(tensor != nullptr ? &infos.back() : nullptr);
    values.push_back(tensor != nullptr && graph.is_initializer(node.inputs[i]) ? tensor : nullptr);
  }
  std::vector<ValueInfo> outputs;
  for (const std::string& output : node.outputs)
    outputs.push_back(ValueInfo{output, DType::Undefined, std::nullopt});
  InferenceContext inference{node, context.opset, std::move(inputs), std::move(values), std::move(outputs)};
  try {
    step.op->infer(inference);
  } catch (const Error&) {
    return {};
  } catch (const std::exception& e) {
    throw Error(ErrorCode::ShapeInferenceFailed, node.describe() + ": shape inference of operator plugin '" +
                                                     step.op->plugin + "' threw: " + e.what());
  }
  return std::move(inference.outputs);
}

}  // namespace

void check_kernel_outputs(const PlanStep& step, const KernelContext& context, const Graph& graph) {
  const Node& node = *step.node;
  std::vector<ValueInfo> inferred;
  bool inferred_here = false;
  for (std::size_t i = 0; i < node.outputs.size() && i < context.outputs.size(); ++i) {
    const Tensor& produced = context.outputs[i];
    if (node.outputs[i].empty() || !produced.defined()) continue;
    const ValueInfo* declared = graph.value_info(node.outputs[i]);
    if (incomplete(declared)) {
      if (!inferred_here) inferred = infer_from_inputs(step, context, graph);
      inferred_here = true;
      if (i < inferred.size() && !incomplete(&inferred[i])) declared = &inferred[i];
    }
    if (declared == nullptr) continue;
    if (dtype_fits(declared->dtype, produced.dtype(), context.device_dtype) &&
        shape_fits(declared->shape, produced.shape()))
      continue;
    const std::string plugin =
        step.op != nullptr && !step.op->plugin.empty() ? " from plugin '" + step.op->plugin + "'" : "";
    throw Error(ErrorCode::ExecutionFailed,
                node.describe() + plugin + ": the kernel's output " + std::to_string(i) + " '" +
                    node.outputs[i] + "' is " + std::string(dtype_name(produced.dtype())) +
                    shape_to_string(produced.shape()) + ", but shape inference declared " +
                    to_string(*declared) + " (a kernel must produce what its inference function declares)");
  }
}

}  // namespace asc
