// The "reference" backend: the project's golden path. Runs a graph node by node on the host
// with each operator's reference kernel; no layout changes, no precision changes, no fusion.
#pragma once

#include <asc/sdk/backend.hpp>

namespace asc::reference {

class ReferenceBackend : public Backend {
 public:
  std::string name() const override { return "reference"; }
  std::string description() const override;
  // Reads no options; rejects any it is given (EE5002) rather than silently ignoring them.
  std::unique_ptr<Executable> compile(const Graph& graph, const OpRegistry& ops,
                                      const BackendOptions& options) const override;
};

}  // namespace asc::reference
