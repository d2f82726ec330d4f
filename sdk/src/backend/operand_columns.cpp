#include "asc/sdk/backend/operand_columns.hpp"

#include <string>
#include <string_view>

namespace asc {
namespace {

// msprof's names for data types (GE's DT_* without the prefix).
std::string_view msprof_dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Float32:
      return "FLOAT";
    case DType::Float16:
      return "FLOAT16";
    case DType::BFloat16:
      return "BF16";
    case DType::Float64:
      return "DOUBLE";
    case DType::Int8:
      return "INT8";
    case DType::UInt8:
      return "UINT8";
    case DType::Int16:
      return "INT16";
    case DType::UInt16:
      return "UINT16";
    case DType::Int32:
      return "INT32";
    case DType::UInt32:
      return "UINT32";
    case DType::Int64:
      return "INT64";
    case DType::UInt64:
      return "UINT64";
    case DType::Bool:
      return "BOOL";
    case DType::Undefined:
      break;
  }
  return "UNDEFINED";
}

std::string msprof_shape(const Shape& shape) {
  std::string text;
  for (std::size_t d = 0; d < shape.size(); ++d) text += (d == 0 ? "" : ",") + std::to_string(shape[d]);
  return text;
}

struct OperandColumns {
  std::string shapes, dtypes, formats;

  // Absent operands keep their place as empty fields.
  void add(const Tensor* tensor, bool first) {
    if (!first) {
      shapes += ';';
      dtypes += ';';
      formats += ';';
    }
    if (tensor == nullptr || !tensor->defined()) return;
    shapes += msprof_shape(tensor->shape());
    dtypes += msprof_dtype_name(tensor->dtype());
    formats += format_name(tensor->format());
  }
};

}  // namespace

ProfileEvent node_profile_event(const KernelContext& context, std::size_t task_id, double start_us,
                                double duration_us) {
  ProfileEvent event;
  event.op_name = context.node.name;
  event.op_type = context.node.op_type;
  event.provenance = context.node.provenance;
  event.task_type = "AI_CPU";
  event.task_id = static_cast<int>(task_id);
  event.start_us = start_us;
  event.duration_us = duration_us;

  OperandColumns inputs;
  for (std::size_t i = 0; i < context.inputs.size(); ++i) inputs.add(context.inputs[i], i == 0);
  OperandColumns outputs;
  for (std::size_t i = 0; i < context.outputs.size(); ++i) outputs.add(&context.outputs[i], i == 0);
  event.input_shapes = std::move(inputs.shapes);
  event.input_dtypes = std::move(inputs.dtypes);
  event.input_formats = std::move(inputs.formats);
  event.output_shapes = std::move(outputs.shapes);
  event.output_dtypes = std::move(outputs.dtypes);
  event.output_formats = std::move(outputs.formats);
  return event;
}

}  // namespace asc
