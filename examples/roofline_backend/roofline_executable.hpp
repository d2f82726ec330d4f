// A graph compiled by the roofline backend: the operators' own kernels run node by node through
// the SDK's execution plan (the reference backend's numerics), and every task that moves data
// gets a simulated time from the roofline (roofline.hpp) on the SoC's device timeline.
#pragma once

#include <asc/sdk/backend.hpp>
#include <asc/sdk/backend/execution_plan.hpp>
#include <memory>
#include <string>
#include <vector>

#include "soc_file.hpp"

namespace roofline {

class RooflineExecutable : public asc::Executable {
 public:
  // Copies `graph`; `ops` is borrowed for the executable's lifetime (Backend::compile's contract).
  RooflineExecutable(const asc::Graph& graph, const asc::OpRegistry& ops, SocFacts soc);

  std::vector<asc::ValueInfo> input_infos() const override;
  std::vector<asc::ValueInfo> output_infos() const override;
  // Runs every node; with options.profile_sink, one ProfileEvent per task, back to back from
  // device time 0; with options.dump_dir, every node's outputs in the seed's naming.
  asc::TensorMap execute(const asc::TensorMap& inputs, const asc::RunOptions& options) override;
  // On a RooflineStream: the inputs' copy to the device, the run and the outputs' copy back, on
  // the stream's device clock (roofline_stream.hpp). On another backend's stream: the default.
  void execute_async(asc::Stream& stream, asc::TensorMap inputs, asc::TensorMap* outputs,
                     asc::RunOptions options) override;
  asc::DeviceInfo device() const override { return device_info(soc_); }

  const SocFacts& soc() const noexcept { return soc_; }

 private:
  std::vector<asc::ValueInfo> infos_of(const std::vector<std::string>& names) const;
  // Heap-held so that the plan's node pointers stay valid when the executable moves.
  std::unique_ptr<const asc::Graph> graph_;
  asc::ExecutionPlan plan_;
  SocFacts soc_;
};

}  // namespace roofline
