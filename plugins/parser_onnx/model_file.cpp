#include "model_file.hpp"

#include <climits>
#include <vector>

#include <asc/sdk/error.hpp>
#include <asc/sdk/io.hpp>

#include "model_label.hpp"

namespace asc::parser_onnx {

onnx::ModelProto read_model_file(const std::filesystem::path& model) {
  std::vector<std::byte> bytes;
  try {
    bytes = read_file(model);
  } catch (const Error& e) {
    throw Error(ErrorCode::ModelNotFound, "cannot read " + model_label(model) + ": " + e.message());
  }
  if (bytes.size() > static_cast<std::size_t>(INT_MAX))
    throw Error(ErrorCode::ModelCorrupt, model_label(model) + " is " + std::to_string(bytes.size()) +
                                             " bytes, beyond protobuf's 2 GiB limit (store the weights as "
                                             "ONNX external data)");
  onnx::ModelProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw Error(ErrorCode::ModelCorrupt,
                model_label(model) + " is not a valid ONNX model: protobuf decoding failed (truncated or not a "
                                     "ModelProto)");
  if (!proto.has_graph() || proto.opset_import_size() == 0)
    throw Error(ErrorCode::ModelCorrupt, model_label(model) + " is not a valid ONNX model: it has no " +
                                             (proto.has_graph() ? "opset_import" : "graph"));
  return proto;
}

}  // namespace asc::parser_onnx
