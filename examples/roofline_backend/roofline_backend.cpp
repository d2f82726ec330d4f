#include "roofline_backend.hpp"

#include <asc/sdk/error.hpp>

#include "roofline_executable.hpp"
#include "roofline_stream.hpp"
#include "soc_file.hpp"

namespace roofline {

std::string RooflineBackend::description() const {
  return "reference numerics, per-operator time from a roofline over the SoC file's peaks and device-memory "
         "bandwidth (an out-of-tree example: examples/roofline_backend)";
}

std::unique_ptr<asc::Executable> RooflineBackend::compile(const asc::Graph& graph, const asc::OpRegistry& ops,
                                                          const asc::BackendOptions& options) const {
  for (const auto& [key, value] : options)
    if (key != "soc_version" && key != "soc_dir")
      throw asc::Error(asc::ErrorCode::ConfigUnknownKey,
                       "backend 'roofline' takes options soc_version and soc_dir, got '" + key + "'");
  const auto soc_version = options.find("soc_version");
  if (soc_version == options.end() || soc_version->second.empty())
    throw asc::Error(asc::ErrorCode::ConfigMissingKey, "backend 'roofline' needs option 'soc_version' (e.g. Ascend310P3)");
  const auto soc_dir = options.find("soc_dir");
  SocFacts soc = load_soc(soc_version->second, soc_directory(soc_dir == options.end() ? "" : soc_dir->second));
  return std::make_unique<RooflineExecutable>(graph, ops, std::move(soc));
}

std::unique_ptr<asc::Stream> RooflineBackend::create_stream() const {
  return std::make_unique<RooflineStream>(next_stream_id_++);
}

}  // namespace roofline
