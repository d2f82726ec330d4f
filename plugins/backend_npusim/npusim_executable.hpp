// A graph compiled for the simulated NPU: runs node by node with the operators' reference
// kernels at the NPU's precision (fp16 rounding at every node boundary under force_fp16) and
// times every task with the SoC's timing model. Tasks run back to back on stream 0.
#pragma once

#include <asc/sdk/backend.hpp>
#include <memory>
#include <vector>

#include "execution_plan.hpp"
#include "precision.hpp"
#include "soc_config.hpp"

namespace asc::npusim {

// What compile() decided for one node.
struct NodeDecision {
  ComputeUnit unit = ComputeUnit::Vector;
  DType compute_dtype = DType::Undefined;  // Undefined: decided at run time from the tensors
  bool rounds_to_f16 = false;  // outputs rounded to fp16 (float outputs under force_fp16)
};

class NpusimExecutable : public Executable {
 public:
  // Copies `graph`; `ops` is borrowed (see Backend::compile).
  NpusimExecutable(const Graph& graph, const OpRegistry& ops, SocConfig soc, PrecisionMode mode);

  std::vector<ValueInfo> input_infos() const override;
  std::vector<ValueInfo> output_infos() const override;
  TensorMap execute(const TensorMap& inputs, const RunOptions& options) override;

  const SocConfig& soc() const noexcept { return soc_; }
  PrecisionMode precision_mode() const noexcept { return mode_; }
  const std::vector<NodeDecision>& decisions() const noexcept { return decisions_; }

 private:
  std::vector<ValueInfo> infos_of(const std::vector<std::string>& names) const;
  std::unique_ptr<const Graph> graph_;
  reference::ExecutionPlan plan_;
  SocConfig soc_;
  PrecisionMode mode_;
  std::vector<NodeDecision> decisions_;  // per plan step
};

}  // namespace asc::npusim
