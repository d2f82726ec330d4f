#include "input_shape_override.hpp"

#include <set>

#include <asc/sdk/error.hpp>

#include "model_label.hpp"

namespace asc::parser_onnx {
namespace {

std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i == 0 ? "" : ",") + std::to_string(dims[i]);
  return text;
}

onnx::ValueInfoProto& find_input(onnx::GraphProto& graph, const std::string& name,
                                 const std::filesystem::path& model_path) {
  std::set<std::string> initializers;
  for (const auto& tensor : graph.initializer()) initializers.insert(tensor.name());
  std::string known;
  for (auto& input : *graph.mutable_input()) {
    if (initializers.count(input.name()) != 0) continue;
    if (input.name() == name) return input;
    known += (known.empty() ? "'" : ", '") + input.name() + "'";
  }
  throw Error(ErrorCode::InputShapeInvalid, "input shape names '" + name + "', which is not an input of " +
                                                model_label(model_path) + " (its inputs: " + known + ")");
}

bool apply_dims(onnx::ValueInfoProto& input, const std::vector<std::int64_t>& dims,
                const std::filesystem::path& model_path) {
  const std::string where = "input '" + input.name() + "' of " + model_label(model_path);
  if (!input.type().has_tensor_type())
    throw Error(ErrorCode::InputShapeInvalid, "input shape given for " + where + ", which is not a tensor");
  auto& tensor_type = *input.mutable_type()->mutable_tensor_type();
  if (tensor_type.has_shape() && tensor_type.shape().dim_size() != static_cast<int>(dims.size()))
    throw Error(ErrorCode::InputShapeInvalid, "input shape " + dims_text(dims) + " for " + where + " has rank " +
                                                  std::to_string(dims.size()) + ", the model's input has rank " +
                                                  std::to_string(tensor_type.shape().dim_size()));
  auto& shape = *tensor_type.mutable_shape();
  while (shape.dim_size() < static_cast<int>(dims.size())) shape.add_dim();
  bool changed = false;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    auto& dim = *shape.mutable_dim(static_cast<int>(i));
    if (dims[i] >= 0) {
      changed |= !dim.has_dim_value() || dim.dim_value() != dims[i];
      dim.set_dim_value(dims[i]);
    } else if (dims[i] == -1) {
      if (dim.has_dim_value()) {
        dim.clear_dim_value();
        changed = true;
      }
    } else {
      throw Error(ErrorCode::InputShapeInvalid,
                  "input shape " + dims_text(dims) + " for " + where + ": dimensions are sizes >= 0 or -1 (dynamic)");
    }
  }
  return changed;
}

void drop_derived_shapes(onnx::GraphProto& graph) {
  graph.clear_value_info();
  for (auto& output : *graph.mutable_output()) {
    if (!output.type().tensor_type().has_shape()) continue;
    for (auto& dim : *output.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
      dim.clear_dim_value();
      dim.clear_dim_param();
    }
  }
}

}  // namespace

void override_input_shapes(onnx::GraphProto& graph, const std::map<std::string, std::vector<std::int64_t>>& shapes,
                           const std::filesystem::path& model_path) {
  bool changed = false;
  for (const auto& [name, dims] : shapes) changed |= apply_dims(find_input(graph, name, model_path), dims, model_path);
  if (changed) drop_derived_shapes(graph);
}

}  // namespace asc::parser_onnx
