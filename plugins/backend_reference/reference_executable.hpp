// A graph compiled by the reference backend: runs the nodes one after another on the host,
// calling each operator's reference kernel.
#pragma once

#include <asc/sdk/backend.hpp>
#include <memory>
#include <vector>

#include <asc/sdk/backend/execution_plan.hpp>

namespace asc::reference {

class ReferenceExecutable : public Executable {
 public:
  // Copies `graph`; `ops` is borrowed (see Backend::compile).
  ReferenceExecutable(const Graph& graph, const OpRegistry& ops);

  std::vector<ValueInfo> input_infos() const override;
  std::vector<ValueInfo> output_infos() const override;
  TensorMap execute(const TensorMap& inputs, const RunOptions& options) override;

 private:
  std::vector<ValueInfo> infos_of(const std::vector<std::string>& names) const;
  // Heap-held so that the plan's node pointers stay valid if the executable moves.
  std::unique_ptr<const Graph> graph_;
  ExecutionPlan plan_;
};

}  // namespace asc::reference
