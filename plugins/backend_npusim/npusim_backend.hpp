// The "npusim" backend: the simulated Ascend NPU (NPU numerics plus a per-task timing model).
//
// Options: soc_version (required: a configs/soc/<name>.yaml), soc_dir (where SoC files are;
// see soc_directory()), precision_mode (force_fp16 default, must_keep_origin_dtype, force_fp32).
#pragma once

#include <asc/sdk/backend.hpp>

namespace asc::npusim {

class NpusimBackend : public Backend {
 public:
  std::string name() const override { return "npusim"; }
  std::string description() const override;
  // EE5004 without soc_version, EE5002 for an unknown option, EE5007 for an unknown SoC or
  // precision mode.
  std::unique_ptr<Executable> compile(const Graph& graph, const OpRegistry& ops,
                                      const BackendOptions& options) const override;
};

}  // namespace asc::npusim
