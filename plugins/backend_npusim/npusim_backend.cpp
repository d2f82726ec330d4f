#include "npusim_backend.hpp"

#include <asc/sdk/error.hpp>

#include "npusim_executable.hpp"

namespace asc::npusim {
namespace {

std::string option(const BackendOptions& options, const std::string& key) {
  const auto found = options.find(key);
  return found == options.end() ? "" : found->second;
}

}  // namespace

std::string NpusimBackend::description() const {
  return "simulated Ascend NPU: fp16 numerics as the NPU computes them, and per-task device time from a SoC "
         "timing model (configs/soc)";
}

std::unique_ptr<Executable> NpusimBackend::compile(const Graph& graph, const OpRegistry& ops,
                                                   const BackendOptions& options) const {
  for (const auto& [key, value] : options)
    if (key != "soc_version" && key != "soc_dir" && key != "precision_mode")
      throw Error(ErrorCode::ConfigUnknownKey, "backend 'npusim' has no option '" + key +
                                                   "' (options: soc_version, soc_dir, precision_mode)");
  const std::string soc_version = option(options, "soc_version");
  if (soc_version.empty())
    throw Error(ErrorCode::ConfigMissingKey, "backend 'npusim' needs option 'soc_version' (e.g. Ascend310P3)");
  SocConfig soc = load_soc(soc_version, soc_directory(option(options, "soc_dir")));
  const PrecisionMode mode = parse_precision_mode(option(options, "precision_mode"));
  return std::make_unique<NpusimExecutable>(graph, ops, std::move(soc), mode);
}

}  // namespace asc::npusim
