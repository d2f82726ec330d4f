#pragma once

#include <functional>
#include <string>

#include <onnx/onnx_pb.h>

namespace asc::parser_onnx {

// Calls visit(tensor, label) for every TensorProto the model holds: initializers, sparse
// initializers' values and indices, tensor attributes, and all of those inside subgraphs and
// model-local functions. `label` names the tensor for messages ("tensor 'conv1.weight'", or the
// attribute and node for unnamed attribute tensors).
using TensorVisitor = std::function<void(onnx::TensorProto& tensor, const std::string& label)>;
void for_each_tensor(onnx::ModelProto& model, const TensorVisitor& visit);

}  // namespace asc::parser_onnx
