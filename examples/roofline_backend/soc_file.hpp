// The chip as the roofline sees it: the few facts of configs/soc/<soc_version>.yaml that bound an
// operator's time (peaks, the device-memory bandwidth, the launch cost), read with yaml-cpp.
// configs/soc/README.md documents the file and cites each value's source.
#pragma once

#include <asc/sdk/backend.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace roofline {

// MMAD fractal: m x k x n multiply-accumulates per cycle and core (CANN's DtypeMKN).
struct CubeShape {
  int m = 0, k = 0, n = 0;
};

struct SocFacts {
  std::string name;                   // "Ascend310P3"
  bool split = false;                 // architecture: split (separate cube and vector cores)
  int ai_cores = 0;                   // cube-capable cores
  int vector_cores = 0;               // the vector units (the AI cores' own on a coupled SoC)
  double clock_mhz = 0;
  CubeShape cube_fp16, cube_int8;
  std::optional<CubeShape> cube_fp32;  // absent: fp32 matrix work runs on the fp16 cube
  double vector_bytes_per_cycle = 0;  // one vector instruction's width per core
  std::int64_t device_memory_bytes = 0;
  double device_memory_bandwidth_gbs = 0;
  double kernel_launch_us = 0;        // fixed_costs.kernel_launch_us: scheduling + completion per task
  double pcie_bandwidth_gbs = 0;      // the host link
};

// Where SoC files are looked up: the backend option `soc_dir` when given, else $ASC_SOC_DIR,
// else the directory the installed SDK's package names (ASC_SOC_INSTALL_DIR, compiled in).
std::filesystem::path soc_directory(const std::string& soc_dir_option);

// Reads <dir>/<soc_version>.yaml. EE5007 for an unknown SoC (listing the files in `dir`) or a
// value out of range, EE5001 for YAML syntax, EE5004 for a missing field, EE5003 for a field of
// the wrong type; every message names file:line and the field.
SocFacts load_soc(const std::string& soc_version, const std::filesystem::path& dir);

// The SoC as the SDK describes a device (profiles, ais_bench).
asc::DeviceInfo device_info(const SocFacts& soc);

}  // namespace roofline
