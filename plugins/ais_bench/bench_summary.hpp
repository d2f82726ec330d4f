// ais_bench's performance summary (summary.py): the lines it prints and <prefix>_summary.json.
// NPU_compute_time is the simulated device time of each measured inference, H2D/D2H_latency
// the simulated host-link copies of its inputs/outputs; one extra line (and JSON key) gives
// the host wall time of each inference, which ais_bench does not have.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "output_files.hpp"

namespace asc::bench {

struct BenchMeasurements {
  std::vector<double> npu_compute_ms, h2d_ms, d2h_ms, host_wall_ms;  // one entry per measured inference
  std::int64_t batchsize = 1;
  int host_threads = 1;  // the host threads the functional emulation was given
};

// 1000 * batchsize / mean NPU compute time; 0 when that mean is 0 (as ais_bench).
double throughput(const BenchMeasurements& measurements);

// The summary block, "[INFO] -----------------Performance Summary------------------" to the
// closing dashes, one line each; H2D/D2H lines only with display_all_summary.
std::vector<std::string> summary_lines(const BenchMeasurements& measurements, bool display_all_summary);

// _summary.json: filesinfo, args, NPU_compute_time, H2D_latency, D2H_latency,
// npu_compute_time_list, throughput, pid (ais_bench's keys and order), then host_wall_time and
// host_threads.
nlohmann::ordered_json summary_json(const BenchMeasurements& measurements, const std::vector<SampleFiles>& files,
                                    const std::vector<std::string>& args, long pid);

}  // namespace asc::bench
