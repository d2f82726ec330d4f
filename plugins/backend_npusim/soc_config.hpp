// The simulated chip: one configs/soc/<soc_version>.yaml (see configs/soc/README.md for the
// fields and their sources).
#pragma once

#include <asc/sdk/backend.hpp>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace asc::npusim {

// MMAD fractal: m x k x n multiply-accumulates per cycle.
struct CubeShape {
  int m = 16, k = 16, n = 16;
  double macs_per_cycle() const { return static_cast<double>(m) * k * n; }
};

struct SocConfig {
  std::string name;
  bool split = false;  // separate cube (AIC) and vector (AIV) cores
  int ai_cores = 1;
  int vector_cores = 1;
  double clock_mhz = 1000;
  CubeShape cube_fp16, cube_int8;
  std::optional<CubeShape> cube_fp32;
  double vector_bytes_per_cycle = 256;
  std::int64_t l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0, l1_bytes = 0, ub_bytes = 0;
  std::int64_t l2_bytes = 0;
  double l2_bandwidth_gbs = 0;
  std::string device_memory_kind;
  std::int64_t device_memory_bytes = 0;
  double device_memory_bandwidth_gbs = 0;
  struct Paths {
    double gm_to_l1 = 0, l2_to_l1 = 0, l1_to_l0a = 0, l1_to_l0b = 0, l0c_to_gm = 0, gm_to_ub = 0, l2_to_ub = 0,
           ub_to_gm = 0;
    // Stores whose destination stays in L2 (an output that fits it, timing_model.cpp): CANN's
    // hardware tables give them their own width (ub_to_l2_rate; GE ATT's L0C->L2 FixPipe).
    double ub_to_l2 = 0, l0c_to_l2 = 0;
  } paths;  // bytes per cycle per core
  // Per-transfer and per-instruction costs in cycles (kernel_launch_us per task); how the timing
  // model uses them: timing_model.hpp.
  struct FixedCosts {
    double mte1_start_cycles = 0;        // per L1 -> L0A/L0B transfer, on top of bytes / width
    double mte2_latency_cycles = 0;      // per GM/L2 -> L1/UB transfer (transfer_cycles)
    double mte3_latency_cycles = 0;      // per UB -> GM transfer
    double fixpipe_latency_cycles = 0;   // per L0C -> GM transfer
    double vector_instruction_min_cycles = 0;
    double cube_instruction_overhead_cycles = 0;
    double cube_instruction_min_cycles = 0;
    double scalar_head_cycles = 0;
    double task_start_cycles = 0;        // per task, before its first load (calibrated)
    double kernel_launch_us = 0;
  } fixed;
  double pcie_bandwidth_gbs = 0;
  // From <soc dir>/calibration.json (written by bench/calibration/calibration_report.py), e.g.
  // "calibration MAE 12.3 % over 8 published points (hold-out 17.0 % over 7)", or "not calibrated:
  // ..." for a SoC without published points; "" without the file.
  std::string timing_accuracy;

  double cycles_per_us() const { return clock_mhz; }
  // Chip-wide fp16 cube peak in flop/s (a MAC counts 2).
  double cube_fp16_peak_flops() const { return 2.0 * cube_fp16.macs_per_cycle() * ai_cores * clock_mhz * 1e6; }
};

// Parses one SoC file. Throws EE5001 (syntax), EE5004 (missing field), EE5003 (wrong type) or
// EE5007 (bad value), naming file:line and the field.
SocConfig parse_soc_file(const std::filesystem::path& file);

// The SoC as the SDK describes a device (profiles, runtimes).
DeviceInfo device_info(const SocConfig& soc);

// The SoC names with a <name>.yaml in `dir`, sorted.
std::vector<std::string> known_socs(const std::filesystem::path& dir);

// Loads <dir>/<soc_version>.yaml, and timing_accuracy from <dir>/calibration.json when present
// (read_timing_accuracy). An unknown name is EE5007 listing the known ones.
SocConfig load_soc(const std::string& soc_version, const std::filesystem::path& dir);

// The calibration error band from a calibration.json: {"tuned": {"mae_percent", "points"},
// "holdout": {...}, "socs": [the SoCs the points were measured on]}. For a SoC outside "socs":
// "not calibrated: no published figures for X (calibrated: A, B)". A malformed file is EE5001
// (syntax), EE5003 (a field of the wrong type) or EE5004 (no "socs") naming it.
std::string read_timing_accuracy(const std::filesystem::path& file, const std::string& soc_version);

// Where SoC files are looked up: `soc_dir` when given, else $ASC_SOC_DIR, else
// <executable dir>/../share/ascend-tools/soc when it exists, else the source tree's configs/soc.
std::filesystem::path soc_directory(const std::string& soc_dir_option);

}  // namespace asc::npusim
