#include "model_validation.hpp"

#include <regex>
#include <set>

#include <asc/sdk/error.hpp>
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "model_label.hpp"

namespace asc::parser_onnx {
namespace {

// ONNX messages span lines ("...\n\n==> Context: Bad node spec for node. Name: x ...").
std::string one_line(const std::string& text) {
  std::string result;
  for (const char c : text) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (!space) result += c;
    else if (!result.empty() && result.back() != ' ') result += ' ';
  }
  if (!result.empty() && result.back() == ' ') result.pop_back();
  return result;
}

// The checker reports "Bad node spec for node. Name: relu1 OpType: Relu", shape inference
// "(op_type:Add, node name: add1)"; messages elsewhere say "node 'add1' (Add)".
std::string node_in(const std::string& message) {
  static const std::regex checker_pattern(R"(Bad node spec for node\. Name: (\S*) OpType: (\S+))");
  static const std::regex inference_pattern(R"(\(op_type:([^,]*), node name: ([^)]*)\))");
  std::smatch match;
  if (std::regex_search(message, match, checker_pattern)) return "node '" + match[1].str() + "' (" + match[2].str() + ")";
  if (std::regex_search(message, match, inference_pattern)) return "node '" + match[2].str() + "' (" + match[1].str() + ")";
  return "";
}

}  // namespace

void check_model(const onnx::ModelProto& model, const std::filesystem::path& model_path, const std::string& stage) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    const std::string message = one_line(e.what());
    const std::string node = node_in(message);
    throw Error(ErrorCode::ModelCheckFailed, "the ONNX checker rejected " + model_label(model_path) +
                                                 (stage.empty() ? "" : " " + stage) +
                                                 (node.empty() ? "" : " at " + node) + ": " + message);
  }
}

void check_outputs_defined(const onnx::ModelProto& model, const std::filesystem::path& model_path) {
  const auto& graph = model.graph();
  std::set<std::string> defined;
  for (const auto& input : graph.input()) defined.insert(input.name());
  for (const auto& tensor : graph.initializer()) defined.insert(tensor.name());
  for (const auto& node : graph.node()) defined.insert(node.output().begin(), node.output().end());
  for (const auto& output : graph.output())
    if (defined.count(output.name()) == 0)
      throw Error(ErrorCode::ModelCheckFailed, model_label(model_path) + ": graph output '" + output.name() +
                                                   "' is produced by no node and is neither an input nor an initializer");
}

void infer_shapes(onnx::ModelProto& model, const std::filesystem::path& model_path) {
  const onnx::ShapeInferenceOptions options(/*check_type_val=*/true, /*strict_mode_val=*/1, /*data_prop_val=*/true);
  try {
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    const std::string message = one_line(e.what());
    const std::string node = node_in(message);
    throw Error(ErrorCode::ShapeInferenceFailed, "shape inference failed for " + model_label(model_path) +
                                                     (node.empty() ? "" : " at " + node) + ": " + message);
  }
}

}  // namespace asc::parser_onnx
