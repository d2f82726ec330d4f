// The built-in operator library: every ONNX operator the project implements, registered with
// ASC_REGISTER_OP in the family folders beside this file.
#include <asc/sdk/plugin.hpp>

ASC_PLUGIN("ops_builtin", ASC_SDK_VERSION_STRING, asc::kOpLibraryKind,
           "ONNX operators: shape inference, reference kernels and cost facts") {
  registrar.add_collected_ops();
}
