#include "roofline.hpp"

#include <algorithm>
#include <asc/sdk/error.hpp>

namespace roofline {
namespace {

// A rate per cycle as a rate per microsecond (clock_mhz cycles in one).
double per_us(double per_cycle, const SocFacts& soc) { return per_cycle * soc.clock_mhz; }

const CubeShape& cube_for(const SocFacts& soc, asc::DType dtype) {
  const std::size_t bytes = asc::dtype_size(dtype);
  if (bytes == 1) return soc.cube_int8;
  if (bytes == 4 && soc.cube_fp32) return *soc.cube_fp32;
  return soc.cube_fp16;
}

int cores_of(const SocFacts& soc, asc::ComputeUnit unit) {
  switch (unit) {
    case asc::ComputeUnit::Cube:
      return soc.ai_cores;
    case asc::ComputeUnit::Vector:
      return soc.split ? soc.vector_cores : soc.ai_cores;
    case asc::ComputeUnit::Scalar:
    case asc::ComputeUnit::None:
      break;
  }
  return 1;
}

std::string task_type_of(const SocFacts& soc, asc::ComputeUnit unit) {
  switch (unit) {
    case asc::ComputeUnit::Cube:
      return "AI_CORE";
    case asc::ComputeUnit::Vector:
      return soc.split ? "AI_VECTOR_CORE" : "AI_CORE";
    case asc::ComputeUnit::Scalar:
    case asc::ComputeUnit::None:
      break;
  }
  return "AI_CPU";
}

}  // namespace

double peak_flops_per_us(const SocFacts& soc, asc::ComputeUnit unit, asc::DType dtype) {
  const double cores = cores_of(soc, unit);
  switch (unit) {
    case asc::ComputeUnit::Cube: {
      const CubeShape& cube = cube_for(soc, dtype);
      return per_us(2.0 * cube.m * cube.k * cube.n, soc) * cores;
    }
    case asc::ComputeUnit::Vector: {
      const double lanes = soc.vector_bytes_per_cycle / static_cast<double>(std::max<std::size_t>(1, asc::dtype_size(dtype)));
      return per_us(lanes, soc) * cores;
    }
    case asc::ComputeUnit::Scalar:
      return per_us(1.0, soc);
    case asc::ComputeUnit::None:
      break;
  }
  throw asc::Error(asc::ErrorCode::Internal, "roofline: metadata-only operators have no peak");
}

TaskTime task_time(const SocFacts& soc, const asc::CostFacts& cost, asc::DType dtype) {
  TaskTime t;
  t.task_type = task_type_of(soc, cost.unit);
  t.block_dim = cores_of(soc, cost.unit);
  t.peak_flops_per_us = peak_flops_per_us(soc, cost.unit, dtype);
  t.bandwidth_bytes_per_us = soc.device_memory_bandwidth_gbs * 1e3;  // 1 GB/s = 1e3 bytes/us
  t.compute_us = cost.flops / t.peak_flops_per_us;
  t.memory_us = static_cast<double>(cost.bytes_read + cost.bytes_written) / t.bandwidth_bytes_per_us;
  t.launch_us = soc.kernel_launch_us;
  t.duration_us = std::max(t.compute_us, t.memory_us) + t.launch_us;
  return t;
}

}  // namespace roofline
