#include "bench_summary.hpp"

#include "latency_stats.hpp"
#include "python_number.hpp"

namespace asc::bench {
namespace {

std::string stats_line(const std::string& label, const std::vector<double>& values) {
  const LatencyStats s = latency_stats(values);
  return "[INFO] " + label + " (ms): min = " + python_float(s.min) + ", max = " + python_float(s.max) +
         ", mean = " + python_float(s.mean) + ", median = " + python_float(s.median) +
         ", percentile(99%) = " + python_float(s.percentile99);
}

nlohmann::ordered_json stats_json(const std::vector<double>& values) {
  const LatencyStats s = latency_stats(values);
  return {{"min", s.min},       {"max", s.max},   {"mean", s.mean}, {"median", s.median},
          {"percentile(99%)", s.percentile99}, {"count", s.count}};
}

}  // namespace

double throughput(const BenchMeasurements& measurements) {
  const double mean = latency_stats(measurements.npu_compute_ms).mean;
  return mean == 0 ? 0 : 1000.0 * static_cast<double>(measurements.batchsize) / mean;
}

std::vector<std::string> summary_lines(const BenchMeasurements& measurements, bool display_all_summary) {
  std::vector<std::string> lines = {"[INFO] -----------------Performance Summary------------------"};
  if (display_all_summary) lines.push_back(stats_line("H2D_latency", measurements.h2d_ms));
  lines.push_back(stats_line("NPU_compute_time", measurements.npu_compute_ms));
  if (display_all_summary) lines.push_back(stats_line("D2H_latency", measurements.d2h_ms));
  lines.push_back(stats_line("host_wall_time", measurements.host_wall_ms));
  lines.push_back("[INFO] throughput 1000*batchsize.mean(" + std::to_string(measurements.batchsize) +
                  ")/NPU_compute_time.mean(" + python_float(latency_stats(measurements.npu_compute_ms).mean) +
                  "): " + python_float(throughput(measurements)));
  lines.push_back("[INFO] ------------------------------------------------------");
  return lines;
}

nlohmann::ordered_json summary_json(const BenchMeasurements& measurements, const std::vector<SampleFiles>& files,
                                    const std::vector<std::string>& args, long pid) {
  nlohmann::ordered_json filesinfo = nlohmann::ordered_json::object();
  for (const SampleFiles& sample : files)
    filesinfo[std::to_string(sample.sample_id)] = {{"infiles", sample.infiles}, {"outfiles", sample.outfiles}};
  nlohmann::ordered_json json;
  json["filesinfo"] = std::move(filesinfo);
  json["args"] = args;
  json["NPU_compute_time"] = stats_json(measurements.npu_compute_ms);
  json["H2D_latency"] = stats_json(measurements.h2d_ms);
  json["D2H_latency"] = stats_json(measurements.d2h_ms);
  json["npu_compute_time_list"] = measurements.npu_compute_ms;
  json["throughput"] = throughput(measurements);
  json["pid"] = pid;
  json["host_wall_time"] = stats_json(measurements.host_wall_ms);
  json["host_threads"] = measurements.host_threads;
  return json;
}

}  // namespace asc::bench
