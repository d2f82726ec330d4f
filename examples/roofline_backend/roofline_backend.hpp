// The "roofline" backend: reference numerics, roofline timing (roofline.hpp) for one SoC.
//
// Options (asc::BackendOptions):
//   soc_version  required: the SoC whose configs/soc/<soc_version>.yaml gives the peaks
//                (ais_bench passes the .om's own)
//   soc_dir      where SoC files are (default: $ASC_SOC_DIR, else the installed SDK's)
// Any other key is EE5002: an option the backend would silently ignore is a user's mistake.
#pragma once

#include <asc/sdk/backend.hpp>
#include <atomic>

namespace roofline {

class RooflineBackend : public asc::Backend {
 public:
  std::string name() const override { return "roofline"; }
  std::string description() const override;
  std::unique_ptr<asc::Executable> compile(const asc::Graph& graph, const asc::OpRegistry& ops,
                                           const asc::BackendOptions& options) const override;
  // A RooflineStream (roofline_stream.hpp): runs on it follow each other in device time.
  std::unique_ptr<asc::Stream> create_stream() const override;

 private:
  mutable std::atomic<int> next_stream_id_{0};
};

}  // namespace roofline
