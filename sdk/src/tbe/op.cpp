#include "asc/sdk/tbe/op.hpp"

#include <map>
#include <memory>

#include "asc/sdk/error.hpp"
#include "asc/sdk/tbe/evaluate.hpp"

namespace asc::tbe {
namespace {

std::string node_label(const OpSpec& spec, const Node& node) {
  return "node '" + node.name + "' (" + (spec.domain.empty() ? "" : spec.domain + "::") + spec.op_type + ")";
}

std::string input_name(const OpSpec& spec, std::size_t i) {
  return i < spec.inputs.size() ? spec.inputs[i] : "input" + std::to_string(i);
}

// Runs `body`, prefixing a coded error with the node (unless it names it already).
template <class F>
auto with_node(const OpSpec& spec, const Node& node, F&& body) {
  try {
    return body();
  } catch (const Error& e) {
    if (e.message().find("'" + node.name + "'") != std::string::npos) throw;
    throw Error(e.code(), node_label(spec, node) + ": " + e.message());
  }
}

std::vector<const ValueInfo*> infos_of(const KernelContext& context, std::vector<ValueInfo>& storage) {
  storage.clear();
  storage.reserve(context.inputs.size());
  std::vector<const ValueInfo*> infos;
  for (std::size_t i = 0; i < context.inputs.size(); ++i) {
    const Tensor* tensor = context.inputs[i];
    if (tensor == nullptr) {
      infos.push_back(nullptr);
      continue;
    }
    storage.push_back(ValueInfo::from_shape(context.node.inputs[i], tensor->dtype(), tensor->shape()));
    infos.push_back(&storage.back());
  }
  return infos;
}

void infer(const OpSpec& spec, InferenceContext& context) {
  const TensorExpr y = build_expression(spec, context.node, context.inputs);
  context.outputs.at(0).dtype = y.dtype() == DType::Int32 ? DType::Float32 : y.dtype();
  context.outputs.at(0).shape = ValueInfo::from_shape("", y.dtype(), y.shape()).shape;
}

void compute(const OpSpec& spec, KernelContext& context) {
  std::vector<ValueInfo> storage;
  const TensorExpr y = build_expression(spec, context.node, infos_of(context, storage));
  std::map<std::string, const Tensor*> inputs;
  for (std::size_t i = 0; i < context.inputs.size(); ++i) inputs[input_name(spec, i)] = context.inputs[i];
  EvaluateOptions options;
  options.numerics = context.device_dtype == DType::Undefined ? Numerics::Golden : Numerics::Device;
  options.device_dtype = context.device_dtype;
  options.threads = context.threads;
  Tensor out = with_node(spec, context.node, [&] { return evaluate(y, inputs, options); });
  const DType dtype = y.dtype() == DType::Int32 ? DType::Float32 : y.dtype();
  context.outputs.at(0) = out.dtype() == dtype ? std::move(out) : out.cast(dtype);
}

CostFacts cost(const OpSpec& spec, const CostContext& context) {
  const TensorExpr y = build_expression(spec, context.node, context.inputs);
  CostFacts facts;
  for (const StagePtr& stage : topological_order(y)) {
    if (stage->kind == StageKind::Placeholder)
      facts.bytes_read += num_elements(stage->shape) * static_cast<std::int64_t>(dtype_size(stage->dtype));
    if (is_cube(stage->kind)) {
      facts.unit = ComputeUnit::Cube;
      const Shape& w = stage->operands[1]->shape;
      const double macs = stage->kind == StageKind::Conv2d
                              ? static_cast<double>(num_elements(stage->shape)) * static_cast<double>(w[1] * w[2] * w[3])
                              : static_cast<double>(num_elements(stage->shape)) *
                                    static_cast<double>(stage->matmul.transpose_b ? w[1] : w[0]);
      facts.flops += 2 * macs;
    } else if (stage->kind != StageKind::Placeholder && stage->kind != StageKind::Broadcast) {
      facts.flops += static_cast<double>(num_elements(is_reduction(stage->kind) ? stage->operands[0]->shape : stage->shape));
    }
  }
  facts.bytes_written = num_elements(y.shape()) * static_cast<std::int64_t>(dtype_size(y.dtype() == DType::Int32 ? DType::Float32 : y.dtype()));
  if (context.target != nullptr) {
    const Schedule schedule = with_node(spec, context.node, [&] { return auto_schedule(y, *context.target, spec.schedule); });
    facts.unit = schedule.unit;
    facts.tiling = schedule.tiling;
  }
  return facts;
}

}  // namespace

const TensorExpr& OpInputs::operator[](std::size_t i) const {
  if (i >= tensors.size())
    throw Error(ErrorCode::InvalidOperator, "node '" + node.name + "' has " + std::to_string(tensors.size()) +
                                                " inputs; the compute function asked for input " + std::to_string(i));
  return tensors[i];
}

TensorExpr build_expression(const OpSpec& spec, const Node& node, const std::vector<const ValueInfo*>& inputs) {
  return with_node(spec, node, [&] {
    if (!spec.compute) throw Error(ErrorCode::InvalidOperator, "the TBE operator has no compute function");
    OpInputs in{node, {}};
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const ValueInfo* info = inputs[i];
      if (info == nullptr) {
        in.tensors.emplace_back();
        continue;
      }
      if (!info->has_static_shape())
        throw Error(ErrorCode::ShapeInferenceFailed, "input '" + input_name(spec, i) +
                                                          "' has no static shape; TBE operators are compiled for static shapes");
      in.tensors.push_back(placeholder(input_name(spec, i), info->static_shape(), info->dtype));
    }
    TensorExpr y = spec.compute(in);
    if (!y.defined())
      throw Error(ErrorCode::TbeExpressionInvalid, "the compute function returned an empty expression");
    return y;
  });
}

OpDefinition make_op_definition(OpSpec spec) {
  auto shared = std::make_shared<const OpSpec>(std::move(spec));
  OpDefinition definition;
  definition.domain = shared->domain;
  definition.op_type = shared->op_type;
  definition.since_version = shared->since_version;
  definition.end_version = shared->end_version;
  definition.kernel_info.dtypes = shared->dtypes;
  definition.infer = [shared](InferenceContext& context) { infer(*shared, context); };
  definition.compute = [shared](KernelContext& context) { compute(*shared, context); };
  definition.cost = [shared](const CostContext& context) { return cost(*shared, context); };
  return definition;
}

}  // namespace asc::tbe
