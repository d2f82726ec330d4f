// A CompiledModel running on the simulated NPU: per call, the profile whose input shapes match
// (CompiledModel::profile_for); its tasks run in order with the operators' reference kernels at
// the compiled dtypes (values whose device dtype is fp16 are rounded to fp16 when written, as
// the NPU stores them), and each task's simulated time comes from the timing model with the
// tiling the compiler chose. Tasks run back to back on stream 0. The timing depends on the
// profile's shapes only, so RunOptions::timing_only skips the kernels: the same events, zero
// outputs (broadcast views of one zero element).
#pragma once

#include <asc/sdk/backend.hpp>
#include <memory>
#include <vector>

#include "compiler/compiled_model.hpp"
#include <asc/sdk/backend/execution_plan.hpp>
#include "soc_config.hpp"
#include "timing_model.hpp"

namespace asc::npusim {

class NpusimExecutable : public Executable {
 public:
  // `ops` is borrowed (see Backend::compile); `soc` is the model's SoC (soc.name ==
  // model.soc_version).
  NpusimExecutable(CompiledModel model, const OpRegistry& ops, SocConfig soc);

  std::vector<ValueInfo> input_infos() const override;
  std::vector<ValueInfo> output_infos() const override;
  // EE8003 when the inputs' shapes match no compiled profile (listing the profiles); EE5007 for
  // timing_only with a dump directory (the run's or the compiled debug_dir).
  TensorMap execute(const TensorMap& inputs, const RunOptions& options) override;
  // On an NpusimStream: H2D copy, run and D2H copy on the simulated device timeline
  // (npusim_stream.hpp; defined in npusim_stream.cpp). Other streams: Executable's default.
  void execute_async(Stream& stream, TensorMap inputs, TensorMap* outputs, RunOptions options) override;
  // One per compiled profile (CompiledModel::profiles), in order.
  std::vector<InputProfile> input_profiles() const override;
  // The SoC file's facts (soc_config.hpp: device_info).
  DeviceInfo device() const override;
  // The .om file (om/om_file.hpp), written atomically.
  void save(const std::filesystem::path& path) const override;

  const SocConfig& soc() const noexcept { return soc_; }
  const CompiledModel& model() const noexcept { return *model_; }

 private:
  std::vector<ValueInfo> infos_of(const std::vector<std::string>& names) const;
  // Per slot: constants as they are, every other value a zero placeholder of its host dtype and
  // the profile's shape.
  std::vector<Tensor> placeholders(const CompiledProfile& profile) const;
  TensorMap execute_timing_only(const CompiledProfile& profile, const std::vector<TaskTiming>& timings,
                                const RunOptions& options) const;
  std::unique_ptr<const CompiledModel> model_;  // the plan points into its graph
  ExecutionPlan plan_;
  SocConfig soc_;
  std::vector<DType> host_dtypes_;        // per slot: the dtype values are stored in on the host
  std::vector<bool> stored_as_fp16_;      // per slot: device dtype fp16 over float32 host storage
  std::vector<std::vector<TaskTiming>> timings_;  // per profile, per task (unused for free tasks)
};

}  // namespace asc::npusim
