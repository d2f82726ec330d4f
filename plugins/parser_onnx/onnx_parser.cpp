#include "onnx_parser.hpp"

#include <asc/sdk/error.hpp>

#include "external_data.hpp"
#include "graph_conversion.hpp"
#include "input_shape_override.hpp"
#include "model_file.hpp"
#include "model_label.hpp"
#include "model_sanity.hpp"
#include "model_validation.hpp"
#include "opset_policy.hpp"

namespace asc::parser_onnx {
namespace {

// Taken before conversion, which may rewrite the IR version and drop model-level fields.
std::map<std::string, std::string> model_metadata(const onnx::ModelProto& model, const std::filesystem::path& path) {
  std::map<std::string, std::string> metadata{{"model_path", path.string()},
                                              {"ir_version", std::to_string(model.ir_version())},
                                              {"producer_name", model.producer_name()},
                                              {"producer_version", model.producer_version()}};
  if (!model.domain().empty()) metadata["domain"] = model.domain();
  if (model.model_version() != 0) metadata["model_version"] = std::to_string(model.model_version());
  if (!model.doc_string().empty()) metadata["doc_string"] = model.doc_string();
  for (const auto& entry : model.metadata_props()) metadata["metadata_props." + entry.key()] = entry.value();
  return metadata;
}

std::map<std::string, std::int64_t> opset_imports(const onnx::ModelProto& model) {
  std::map<std::string, std::int64_t> imports;
  for (const auto& import : model.opset_import()) imports[normalized_domain(import.domain())] = import.version();
  return imports;
}

Graph parse_model(const std::filesystem::path& path, const ParseOptions& options) {
  onnx::ModelProto model = read_model_file(path);
  std::map<std::string, std::string> metadata = model_metadata(model, path);
  // Before the checker, which would otherwise open the external files itself, unchecked.
  load_external_data(model, path);

  const auto opset = default_opset(model);
  if (opset) require_supported_opset(*opset, path);
  check_model(model, path, "");
  check_outputs_defined(model, path);
  check_before_shape_inference(model, path);
  if (opset && *opset < kMinOpset) {
    model = convert_to_min_opset(model, *opset, path);
    check_model(model, path, "after its conversion from opset " + std::to_string(*opset) + " to " +
                                 std::to_string(kMinOpset));
  }
  override_input_shapes(*model.mutable_graph(), options.input_shapes, path);
  infer_shapes(model, path);

  Graph graph = GraphConverter(path, model.graph()).convert(*model.mutable_graph(), opset_imports(model));
  graph.metadata = std::move(metadata);
  if (opset) graph.metadata["original_opset"] = std::to_string(*opset);
  return graph;
}

}  // namespace

Graph OnnxParser::parse(const std::filesystem::path& model, const ParseOptions& options) const {
  try {
    return parse_model(model, options);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(ErrorCode::Internal, "parsing " + model_label(model) + " failed unexpectedly: " + e.what());
  }
}

}  // namespace asc::parser_onnx
