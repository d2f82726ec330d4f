// An operator plugin that re-registers the built-in ai.onnx Relu beside an operator of its own
// (com.example.ReluTwin): the host must refuse this plugin, whole, and keep the built-in library.
#include <climits>

#include "asc/sdk/op_registry.hpp"
#include "asc/sdk/plugin.hpp"

namespace {

void infer(asc::InferenceContext& context) {
  context.outputs[0].dtype = context.input(0).dtype;
  context.outputs[0].shape = context.input(0).shape;
}
void compute(asc::KernelContext& context) {
  context.outputs[0] = context.input(0);
}
asc::CostFacts cost(const asc::CostContext&) {
  return {};
}

}  // namespace

ASC_REGISTER_OP("com.example", "ReluTwin", 1, INT_MAX, infer, compute, cost);
ASC_REGISTER_OP("", "Relu", 14, INT_MAX, infer, compute, cost);

ASC_PLUGIN("reregisters_relu", "1.0.0", asc::kOpLibraryKind, "Registers Relu again (for the host's tests)") {
  registrar.add_collected_ops();
}
