#include "reference_backend.hpp"

#include <asc/sdk/error.hpp>

#include "reference_executable.hpp"

namespace asc::reference {

std::string ReferenceBackend::description() const {
  return "host execution with the operators' reference kernels, node by node (the golden results)";
}

std::unique_ptr<Executable> ReferenceBackend::compile(const Graph& graph, const OpRegistry& ops,
                                                      const BackendOptions& options) const {
  if (!options.empty())
    throw Error(ErrorCode::ConfigUnknownKey,
                "backend 'reference' takes no options, got '" + options.begin()->first + "'");
  return std::make_unique<ReferenceExecutable>(graph, ops);
}

}  // namespace asc::reference
