#include "static_shapes.hpp"

#include <asc/sdk/error.hpp>

namespace asc::npusim {
namespace {

// Constant values worth propagating: shape arithmetic, not weights being transformed.
constexpr std::int64_t kMaxPropagatedElements = 4096;

bool is_static(const ValueInfo& info) {
  if (!info.shape) return false;
  for (const Dim& dim : *info.shape)
    if (!dim.is_static()) return false;
  return true;
}

class ShapePropagation {
 public:
  ShapePropagation(const Graph& graph, const OpRegistry& ops, std::string label)
      : graph_(graph), ops_(ops), label_(std::move(label)) {}

  std::unordered_map<std::string, ValueInfo> run(const std::map<std::string, Shape>& input_shapes) {
    for (const auto& [name, tensor] : graph_.initializers) {
      infos_[name] = ValueInfo::from_shape(name, tensor.dtype(), tensor.shape());
      if (tensor.numel() <= kMaxPropagatedElements) values_[name] = tensor;
    }
    for (const std::string& input : graph_.inputs) {
      const auto shape = input_shapes.find(input);
      const ValueInfo* declared = graph_.value_info(input);
      if (shape == input_shapes.end() || declared == nullptr)
        throw Error(ErrorCode::Internal, "profile " + label_ + ": no shape for graph input '" + input + "'");
      infos_[input] = ValueInfo::from_shape(input, declared->dtype, shape->second);
    }
    for (const Node* node : graph_.nodes()) infer(*node);
    return std::move(infos_);
  }

 private:
  void infer(const Node& node) {
    std::vector<const ValueInfo*> inputs;
    std::vector<const Tensor*> values;
    for (const std::string& name : node.inputs) {
      const auto info = name.empty() ? infos_.end() : infos_.find(name);
      inputs.push_back(info == infos_.end() ? nullptr : &info->second);
      const auto value = name.empty() ? values_.end() : values_.find(name);
      values.push_back(value == values_.end() ? nullptr : &value->second);
    }
    std::vector<ValueInfo> outputs;
    for (const std::string& name : node.outputs) outputs.push_back(ValueInfo{name, DType::Undefined, std::nullopt});
    const OpDefinition* op = find_op(ops_, graph_, node);
    const std::int64_t opset = graph_.opset(node.domain);
    if (op != nullptr && op->infer) {
      InferenceContext context{node, opset, inputs, values, std::move(outputs)};
      try {
        op->infer(context);
      } catch (const Error& e) {
        throw Error(ErrorCode::ShapeInferenceFailed,
                    node.describe() + ": shape inference for profile " + label_ + " failed: " + e.message());
      } catch (const std::exception& e) {
        throw Error(ErrorCode::ShapeInferenceFailed, node.describe() + ": shape inference of operator plugin '" +
                                                         op->plugin + "' threw: " + e.what());
      }
      outputs = std::move(context.outputs);
    }
    for (std::size_t i = 0; i < node.outputs.size(); ++i) {
      const std::string& name = node.outputs[i];
      if (name.empty()) continue;
      ValueInfo info = outputs[i];
      const ValueInfo* declared = graph_.value_info(name);
      if (!is_static(info) && declared != nullptr && is_static(*declared)) info.shape = declared->shape;
      if (declared != nullptr && declared->dtype != DType::Undefined) info.dtype = declared->dtype;
      if (!is_static(info))
        throw Error(ErrorCode::ShapeInferenceFailed,
                    node.describe() + ": output '" + name + "' has no static shape in profile " + label_ +
                        (info.shape ? " (" + to_string(info) + ")" : " (rank unknown)") +
                        "; the compiler needs static shapes (data-dependent output sizes are not supported)");
      info.name = name;
      infos_[name] = std::move(info);
    }
    if (op != nullptr && op->compute) propagate_values(node, *op, opset, values);
  }

  // Runs the kernel when every input value is known (or only its shape is read, as by Shape and
  // Size) and the inputs are small.
  void propagate_values(const Node& node, const OpDefinition& op, std::int64_t opset, std::vector<const Tensor*> values) {
    const bool reads_shape_only = node.domain.empty() && (node.op_type == "Shape" || node.op_type == "Size");
    std::vector<Tensor> placeholders;  // zero-stride tensors of the right shape for Shape/Size
    placeholders.reserve(node.inputs.size());
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      if (node.inputs[i].empty() || values[i] != nullptr) continue;
      if (!reads_shape_only) return;
      const ValueInfo& info = infos_.at(node.inputs[i]);
      const Shape shape = info.static_shape();
      const DType dtype = info.dtype == DType::Undefined ? DType::Float32 : info.dtype;
      placeholders.emplace_back(Buffer::allocate(dtype_size(dtype)), 0, dtype, shape, Shape(shape.size(), 0));
      values[i] = &placeholders.back();
    }
    for (const Tensor* value : values)
      if (value != nullptr && value->numel() > kMaxPropagatedElements && !reads_shape_only) return;
    KernelContext context{node, opset, values, std::vector<Tensor>(node.outputs.size()), 1};
    try {
      op.compute(context);
    } catch (const Error&) {
      return;  // the value stays unknown; inference alone decides the shapes downstream
    }
    for (std::size_t i = 0; i < node.outputs.size(); ++i)
      if (!node.outputs[i].empty() && context.outputs[i].defined() && context.outputs[i].numel() <= kMaxPropagatedElements)
        values_[node.outputs[i]] = context.outputs[i];
  }

  const Graph& graph_;
  const OpRegistry& ops_;
  std::string label_;
  std::unordered_map<std::string, ValueInfo> infos_;
  std::unordered_map<std::string, Tensor> values_;
};

}  // namespace

std::unordered_map<std::string, ValueInfo> infer_static_values(const Graph& graph, const OpRegistry& ops,
                                                               const std::map<std::string, Shape>& input_shapes,
                                                               const std::string& label) {
  return ShapePropagation(graph, ops, label).run(input_shapes);
}

}  // namespace asc::npusim
