#include "signal/signal_inputs.hpp"

#include <string>
#include <vector>

#include <asc/sdk/error.hpp>

#include "common/onnx_dtype_codes.hpp"

namespace asc::ops {
namespace {

const Tensor& scalar_input(const KernelContext& context, std::size_t index, const char* name, bool floating) {
  const Tensor& tensor = context.input(index);
  const bool dtype_ok = floating ? is_floating(tensor.dtype())
                                 : tensor.dtype() == DType::Int32 || tensor.dtype() == DType::Int64;
  if (!dtype_ok)
    throw Error(ErrorCode::OperatorDtypeUnsupported, context.node.describe() + ": input '" + name + "' is " +
                                                         std::string(dtype_name(tensor.dtype())) + ", expected " +
                                                         (floating ? "a float type" : "int32 or int64"));
  if (tensor.numel() != 1)
    throw Error(ErrorCode::InvalidOperator, context.node.describe() + ": input '" + name + "' has shape " +
                                                shape_to_string(tensor.shape()) + ", expected a scalar");
  return tensor;
}

}  // namespace

std::int64_t scalar_int_input(const KernelContext& context, std::size_t index, const char* name) {
  return scalar_input(context, index, name, false).to_int64s()[0];
}

double scalar_float_input(const KernelContext& context, std::size_t index, const char* name) {
  return scalar_input(context, index, name, true).to_doubles()[0];
}

std::optional<std::int64_t> known_scalar_int_input(const InferenceContext& context, std::size_t index) {
  if (!context.has_input(index)) return std::nullopt;
  const Tensor* value = context.input_value(index);
  if (value == nullptr || value->numel() != 1 || !is_integral(value->dtype())) return std::nullopt;
  return value->to_int64s()[0];
}

DType output_datatype(const Node& node) {
  const std::int64_t code = node.attributes.get_int("output_datatype", 1);
  const std::optional<DType> dtype = dtype_from_onnx_code(code);
  if (!dtype || *dtype == DType::Bool)
    throw Error(ErrorCode::OperatorDtypeUnsupported,
                node.describe() + ": attribute 'output_datatype' " + std::to_string(code) + " is not a numeric type");
  return *dtype;
}

}  // namespace asc::ops
