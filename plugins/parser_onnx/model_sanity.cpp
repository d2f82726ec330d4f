#include "model_sanity.hpp"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include <asc/sdk/error.hpp>

#include "model_label.hpp"

namespace asc::parser_onnx {
namespace {

std::string node_label(const onnx::NodeProto& node) { return "node '" + node.name() + "' (" + node.op_type() + ")"; }

[[noreturn]] void refuse_attribute(const std::filesystem::path& model_path, const onnx::NodeProto& node,
                                   const onnx::AttributeProto& attribute, int index, const std::string& rule) {
  throw Error(ErrorCode::InvalidOperator, model_label(model_path) + ": " + node_label(node) + ": attribute " +
                                              attribute.name() + "[" + std::to_string(index) + "] is " +
                                              std::to_string(attribute.ints(index)) + "; " + rule);
}

void check_attributes(const onnx::NodeProto& node, const std::filesystem::path& model_path) {
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    const std::string& name = attribute.name();
    // Shape inference divides by strides and multiplies by dilations; a kernel of 0 or less has no
    // window. ONNX gives these names one meaning across Conv, ConvTranspose, the pools, Col2Im.
    if (name == "strides" || name == "dilations" || name == "kernel_shape") {
      for (int i = 0; i < attribute.ints_size(); ++i)
        if (attribute.ints(i) < 1) refuse_attribute(model_path, node, attribute, i, name + " must be at least 1");
    } else if (name == "pads" && node.op_type() != "Pad") {
      for (int i = 0; i < attribute.ints_size(); ++i)
        if (attribute.ints(i) < 0) refuse_attribute(model_path, node, attribute, i, "pads must be 0 or more");
    } else if (name == "axes") {
      std::set<std::int64_t> seen;
      for (int i = 0; i < attribute.ints_size(); ++i)
        if (!seen.insert(attribute.ints(i)).second)
          refuse_attribute(model_path, node, attribute, i, "an axis may be given only once");
    }
    if (attribute.has_g()) {
      for (const onnx::NodeProto& inner : attribute.g().node()) check_attributes(inner, model_path);
    }
    for (const onnx::GraphProto& graph : attribute.graphs())
      for (const onnx::NodeProto& inner : graph.node()) check_attributes(inner, model_path);
  }
}

// "graph input 'x'", "value_info 'y'".
void check_dims(onnx::ValueInfoProto& value, const std::string& kind, const std::filesystem::path& model_path) {
  if (!value.has_type() || !value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) return;
  auto& shape = *value.mutable_type()->mutable_tensor_type()->mutable_shape();
  std::int64_t elements = 1;
  bool overflow = false;
  bool all_static = true;
  for (int i = 0; i < shape.dim_size(); ++i) {
    auto& dim = *shape.mutable_dim(i);
    if (!dim.has_dim_value()) {
      all_static = false;
      continue;
    }
    const std::int64_t size = dim.dim_value();
    if (size == -1) {
      dim.clear_dim_value();
      all_static = false;
      continue;
    }
    if (size < 0)
      throw Error(ErrorCode::ModelCheckFailed, model_label(model_path) + ": " + kind + " '" + value.name() +
                                                   "' dimension " + std::to_string(i) + " is " + std::to_string(size) +
                                                   "; a dimension must be 0 or more, or symbolic");
    if (size != 0 && elements > std::numeric_limits<std::int64_t>::max() / size) overflow = true;
    else elements *= size;
  }
  if (all_static && overflow)
    throw Error(ErrorCode::ModelCheckFailed, model_label(model_path) + ": " + kind + " '" + value.name() +
                                                 "' has more elements than a 64-bit count holds");
}

// The offset of the first byte that breaks UTF-8 (a bad lead or continuation byte, an overlong
// form, a surrogate, past U+10FFFF, or a cut sequence), or npos.
std::size_t invalid_utf8_at(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    std::uint32_t code = 0, minimum = 0;
    if (lead < 0x80) length = 1, code = lead;
    else if ((lead & 0xE0) == 0xC0) length = 2, code = lead & 0x1F, minimum = 0x80;
    else if ((lead & 0xF0) == 0xE0) length = 3, code = lead & 0x0F, minimum = 0x800;
    else if ((lead & 0xF8) == 0xF0) length = 4, code = lead & 0x07, minimum = 0x10000;
    else return i;
    if (i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return i;
      code = (code << 6) | (next & 0x3F);
    }
    if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return i;
    i += length;
  }
  return std::string_view::npos;
}

// Names end up in JSON reports, .om files and file names; ONNX requires its strings to be UTF-8.
void check_utf8(const std::string& text, const std::string& what, const std::filesystem::path& model_path) {
  const std::size_t at = invalid_utf8_at(text);
  if (at == std::string_view::npos) return;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(text[at]));
  throw Error(ErrorCode::ModelCheckFailed, model_label(model_path) + ": " + what + " is not valid UTF-8 (byte " +
                                               byte + " at offset " + std::to_string(at) + ")");
}

void check_names(const onnx::GraphProto& graph, const std::filesystem::path& model_path) {
  check_utf8(graph.name(), "the graph name", model_path);
  for (const auto* values : {&graph.input(), &graph.output(), &graph.value_info()})
    for (const auto& value : *values) check_utf8(value.name(), "a value name", model_path);
  for (const auto& tensor : graph.initializer()) check_utf8(tensor.name(), "an initializer name", model_path);
  for (const onnx::NodeProto& node : graph.node()) {
    check_utf8(node.name(), "a node name", model_path);
    check_utf8(node.op_type(), "the op type of a node", model_path);
    check_utf8(node.domain(), "the domain of a node", model_path);
    for (const auto* names : {&node.input(), &node.output()})
      for (const std::string& name : *names) check_utf8(name, "a value name of " + node_label(node), model_path);
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      if (attribute.has_g()) check_names(attribute.g(), model_path);
      for (const onnx::GraphProto& subgraph : attribute.graphs()) check_names(subgraph, model_path);
    }
  }
}

// Which input of a convolution is its weight, by op type (ONNX's default domain).
int weight_input(const onnx::NodeProto& node) {
  if (!node.domain().empty() && node.domain() != "ai.onnx") return -1;
  const std::string& type = node.op_type();
  if (type == "Conv" || type == "ConvInteger" || type == "ConvTranspose") return 1;
  if (type == "QLinearConv") return 3;
  return -1;
}

const onnx::AttributeProto* find_attribute(const onnx::NodeProto& node, std::string_view name) {
  for (const onnx::AttributeProto& attribute : node.attribute())
    if (attribute.name() == name) return &attribute;
  return nullptr;
}

// ONNX 1.12's convPoolShapeInference takes a convolution's kernel size from its weight's shape
// when there is no kernel_shape, then indexes `dilations` (by default one per spatial axis of the
// *input*) over the weight's spatial axes: a weight of higher rank than the input reads an empty
// vector (SIGSEGV, found by tests/fuzz/fuzz_onnx). Writing the default dilations out, one per
// spatial axis of the weight (the same meaning), makes ONNX compare their count with the input's
// rank and fail cleanly (EE1005). Weights whose rank is known before inference (initializers,
// graph inputs) are covered; a weight computed by another node is not.
void spell_out_conv_dilations(onnx::GraphProto& graph, const std::filesystem::path& model_path) {
  std::map<std::string, int> ranks;
  for (const onnx::TensorProto& tensor : graph.initializer()) ranks[tensor.name()] = tensor.dims_size();
  for (const onnx::ValueInfoProto& value : graph.input())
    if (value.type().has_tensor_type() && value.type().tensor_type().has_shape())
      ranks.emplace(value.name(), value.type().tensor_type().shape().dim_size());
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    const int weight = weight_input(node);
    if (weight < 0 || node.input_size() <= weight) continue;
    const auto rank = ranks.find(node.input(weight));
    if (rank == ranks.end()) continue;
    if (rank->second < 3)
      throw Error(ErrorCode::InvalidOperator, model_label(model_path) + ": " + node_label(node) + ": weight '" +
                                                  node.input(weight) + "' has " + std::to_string(rank->second) +
                                                  " dimensions; a convolution's weight has at least 3");
    // The same read past the end with dilations written out for the input's spatial axes but a
    // weight of another rank (fuzz_onnx, weight [8,3,8,3,5] on input [1,3,8,8], dilations [1,2]).
    const auto data = ranks.find(node.input(0));
    if (data != ranks.end() && data->second != rank->second)
      throw Error(ErrorCode::InvalidOperator, model_label(model_path) + ": " + node_label(node) + ": weight '" +
                                                  node.input(weight) + "' has " + std::to_string(rank->second) +
                                                  " dimensions but input '" + node.input(0) + "' has " +
                                                  std::to_string(data->second) + "; they must be equal");
    if (find_attribute(node, "kernel_shape") != nullptr) continue;
    if (const onnx::AttributeProto* given = find_attribute(node, "dilations")) {
      if (given->ints_size() != rank->second - 2)
        throw Error(ErrorCode::InvalidOperator, model_label(model_path) + ": " + node_label(node) + ": " +
                                                    std::to_string(given->ints_size()) + " dilations for weight '" +
                                                    node.input(weight) + "' with " + std::to_string(rank->second - 2) +
                                                    " spatial dimensions");
      continue;
    }
    onnx::AttributeProto& dilations = *node.add_attribute();
    dilations.set_name("dilations");
    dilations.set_type(onnx::AttributeProto::INTS);
    for (int axis = 2; axis < rank->second; ++axis) dilations.add_ints(1);
  }
}

}  // namespace

void check_before_shape_inference(onnx::ModelProto& model, const std::filesystem::path& model_path) {
  for (const auto& import : model.opset_import())
    if (import.version() < 1)
      throw Error(ErrorCode::OpsetUnsupported, model_label(model_path) + " imports opset " +
                                                   std::to_string(import.version()) + " of domain '" +
                                                   import.domain() + "'; an opset version is 1 or more");
  onnx::GraphProto& graph = *model.mutable_graph();
  // ONNX's checker accepts it; every tool downstream would then work on nothing.
  if (graph.output_size() == 0)
    throw Error(ErrorCode::ModelCheckFailed, model_label(model_path) + ": the graph has no outputs");
  check_names(graph, model_path);
  for (auto& value : *graph.mutable_input()) check_dims(value, "graph input", model_path);
  for (auto& value : *graph.mutable_output()) check_dims(value, "graph output", model_path);
  for (auto& value : *graph.mutable_value_info()) check_dims(value, "value_info", model_path);
  for (const onnx::TensorProto& tensor : graph.initializer()) {
    std::int64_t elements = 1;
    for (int i = 0; i < tensor.dims_size(); ++i) {
      const std::int64_t size = tensor.dims(i);
      if (size < 0 || (size != 0 && elements > std::numeric_limits<std::int64_t>::max() / size))
        throw Error(ErrorCode::ModelCheckFailed, model_label(model_path) + ": initializer '" + tensor.name() +
                                                     "' dimension " + std::to_string(i) + " is " + std::to_string(size) +
                                                     (size < 0 ? "; a dimension must be 0 or more"
                                                               : ", which makes more elements than a 64-bit count holds"));
      elements *= size;
    }
  }
  for (const onnx::NodeProto& node : graph.node()) check_attributes(node, model_path);
  spell_out_conv_dilations(graph, model_path);
}

}  // namespace asc::parser_onnx
