#include "reference_backend.hpp"

#include <asc/sdk/error.hpp>

#include "reference_executable.hpp"

namespace asc::reference {

std::string ReferenceBackend::description() const {
  return "host execution with the operators' reference kernels, node by node (the golden results)";
}

std::unique_ptr<Executable> ReferenceBackend::compile(const Graph& graph, const OpRegistry& ops,
                                                      const BackendOptions& options) const {
  // soc_version names the device a model was compiled for; host results do not depend on it.
  for (const auto& [key, value] : options)
    if (key != "soc_version")
      throw Error(ErrorCode::ConfigUnknownKey, "backend 'reference' takes no option but soc_version, got '" + key + "'");
  return std::make_unique<ReferenceExecutable>(graph, ops);
}

}  // namespace asc::reference
