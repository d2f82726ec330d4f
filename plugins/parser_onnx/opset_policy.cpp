#include "opset_policy.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include <asc/sdk/error.hpp>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include "model_label.hpp"

namespace asc::parser_onnx {
namespace {

bool is_default_domain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// "node 'c' (my.domain.Custom)"
std::string describe(const onnx::NodeProto& node) {
  const std::string op = is_default_domain(node.domain()) ? node.op_type() : node.domain() + "." + node.op_type();
  return "node '" + node.name() + "' (" + op + ")";
}

template <class Fn> void for_each_node(const onnx::GraphProto& graph, Fn&& fn) {
  for (const auto& node : graph.node()) {
    fn(node);
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) for_each_node(attribute.g(), fn);
      for (const auto& subgraph : attribute.graphs()) for_each_node(subgraph, fn);
    }
  }
}

// The converter only knows default-domain operators and fails on others with an unhelpful
// std::out_of_range, so they are reported up front.
void require_default_domain_nodes(const onnx::GraphProto& graph, const std::string& refusal) {
  for_each_node(graph, [&](const onnx::NodeProto& node) {
    if (!is_default_domain(node.domain()))
      throw Error(ErrorCode::OpsetUnsupported, refusal + ": the ONNX version converter handles only default-domain "
                                                         "operators, and " + describe(node) + " is not one");
  });
}

// ONNX assertion messages start with "<source file>:<line>: <function>: Assertion `...` failed: ".
std::string strip_assertion_prefix(const std::string& message) {
  const std::string marker = "failed: ";
  const auto at = message.rfind(marker);
  std::string text = at == std::string::npos ? message : message.substr(at + marker.size());
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

bool mentions_word(const std::string& text, const std::string& word) {
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const auto end = at + word.size();
    const bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
    const bool ends = end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
    if (starts && ends) return true;
  }
  return false;
}

// The first node whose operator the converter's message names, described; "" when none is.
std::string node_named_by(const onnx::GraphProto& graph, const std::string& message) {
  std::string found;
  for_each_node(graph, [&](const onnx::NodeProto& node) {
    if (found.empty() && mentions_word(message, node.op_type())) found = describe(node);
  });
  return found;
}

// Adapters that replace a node (Upsample -> Resize, ...) drop its name and rename its outputs;
// others insert unnamed Constant nodes for attributes that became inputs. The converter keeps
// node order, so once those new Constants are set aside the nodes pair up with the originals
// one to one, and a nameless node takes its original's name back (provenance depends on it).
void restore_node_names(const onnx::GraphProto& original, onnx::GraphProto& converted) {
  std::set<std::string> original_outputs;
  for (const auto& node : original.node()) original_outputs.insert(node.output().begin(), node.output().end());
  std::vector<onnx::NodeProto*> counterparts;
  for (auto& node : *converted.mutable_node()) {
    const bool added_by_adapter =
        node.name().empty() && node.op_type() == "Constant" &&
        std::none_of(node.output().begin(), node.output().end(),
                     [&](const std::string& output) { return original_outputs.count(output) != 0; });
    if (!added_by_adapter) counterparts.push_back(&node);
  }
  if (counterparts.size() != static_cast<std::size_t>(original.node_size())) return;
  for (std::size_t i = 0; i < counterparts.size(); ++i)
    if (counterparts[i]->name().empty()) counterparts[i]->set_name(original.node(static_cast<int>(i)).name());
}

}  // namespace

std::optional<std::int64_t> default_opset(const onnx::ModelProto& model) {
  for (const auto& import : model.opset_import())
    if (is_default_domain(import.domain())) return import.version();
  return std::nullopt;
}

void require_supported_opset(std::int64_t opset, const std::filesystem::path& model_path) {
  if (opset < 1 || opset > kMaxOpset)
    throw Error(ErrorCode::OpsetUnsupported,
                model_label(model_path) + " uses opset " + std::to_string(opset) +
                    " of the default ONNX domain; supported are opsets 1.." + std::to_string(kMaxOpset) +
                    " (those below " + std::to_string(kMinOpset) + " are converted to " + std::to_string(kMinOpset) +
                    ")");
}

onnx::ModelProto convert_to_min_opset(const onnx::ModelProto& model, std::int64_t opset,
                                      const std::filesystem::path& model_path) {
  const std::string refusal = "cannot convert " + model_label(model_path) + " from opset " + std::to_string(opset) +
                              " to " + std::to_string(kMinOpset);
  require_default_domain_nodes(model.graph(), refusal);
  onnx::ModelProto converted;
  try {
    // Adapters such as the broadcasting ones (Add-6 -> Add-7) read input shapes from value_info,
    // so shapes are inferred first, leniently, as ONNX's own Python binding does.
    onnx::ModelProto with_shapes = model;
    onnx::shape_inference::InferShapes(with_shapes);
    converted = onnx::version_conversion::ConvertVersion(with_shapes, static_cast<int>(kMinOpset));
  } catch (const std::exception& e) {
    const std::string message = strip_assertion_prefix(e.what());
    const std::string node = node_named_by(model.graph(), message);
    throw Error(ErrorCode::OpsetUnsupported, refusal + (node.empty() ? "" : " at " + node) + ": " + message);
  }
  restore_node_names(model.graph(), *converted.mutable_graph());
  // Opset 11 came with IR version 6. Below IR 4 every initializer must also be a graph input,
  // which the initializers that adapters add (Pad's pads, Clip's bounds, ...) are not.
  if (converted.ir_version() < 6) converted.set_ir_version(6);
  return converted;
}

}  // namespace asc::parser_onnx
