// Custom operators for the --op_lib_path tests: com.example.MyCustomOp(X) -> Y = X, one Vector kernel,
// and three with a bug: ThrowingInferOp's inference throws, WrongShapeOp's kernel drops the last
// dimension its inference declared, Float64Op's kernel returns float64 where it declared the input's
// float32. Built into its own directory, never installed, never on the default plugin path.
#include <climits>
#include <stdexcept>
#include <vector>

#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/plugin.hpp>

namespace {

void infer(asc::InferenceContext& context) {
  context.outputs[0].dtype = context.input(0).dtype;
  context.outputs[0].shape = context.input(0).shape;
}

void compute(asc::KernelContext& context) { context.outputs[0] = context.input(0); }

asc::CostFacts cost(const asc::CostContext& context) {
  const auto bytes = context.outputs[0]->has_static_shape()
                         ? static_cast<std::int64_t>(asc::dtype_size(context.outputs[0]->dtype)) *
                               asc::num_elements(context.outputs[0]->static_shape())
                         : 0;
  return {0, bytes, bytes, asc::ComputeUnit::Vector};
}

// A plugin bug: inference that throws something other than asc::Error.
void throwing_infer(asc::InferenceContext&) { throw std::runtime_error("vector::at out of range in my inference"); }

// Plugin bugs the backends catch after the kernel runs (check_kernel_outputs).
void wrong_shape_compute(asc::KernelContext& context) {
  const asc::Tensor& x = context.input(0);
  asc::Shape shape = x.shape();
  shape.pop_back();
  context.outputs[0] = asc::Tensor::from_vector<float>(shape, std::vector<float>(asc::num_elements(shape), 1.0f));
}

void float64_compute(asc::KernelContext& context) { context.outputs[0] = context.input(0).cast(asc::DType::Float64); }

}  // namespace

ASC_REGISTER_OP("com.example", "MyCustomOp", 1, INT_MAX, infer, compute, cost);
ASC_REGISTER_OP("com.example", "ThrowingInferOp", 1, INT_MAX, throwing_infer, compute, cost);
ASC_REGISTER_OP("com.example", "WrongShapeOp", 1, INT_MAX, infer, wrong_shape_compute, cost);
ASC_REGISTER_OP("com.example", "Float64Op", 1, INT_MAX, infer, float64_compute, cost);

ASC_PLUGIN("atc_test_custom_ops", ASC_SDK_VERSION_STRING, asc::kOpLibraryKind, "A custom operator for atc's tests") {
  registrar.add_collected_ops();
}
