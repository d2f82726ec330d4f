// What a backend tells an operator's cost function about the device (KernelTarget), and the
// tiling an operator may hand back with its cost facts (KernelTiling) — since SDK 0.4, for
// operators that schedule themselves (the TBE DSL, asc/sdk/tbe/). A backend that models on-chip
// buffers (npusim) fills CostContext::target; the others leave it null, and operators then
// report plain cost facts.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace asc {

// The tiling of one task: how it splits over the cores and which tiles it stages through the
// on-chip buffers. The fields mirror the NPU compiler's own tiling (docs/npusim.md).
struct KernelTiling {
  int block_dim = 1;  // blocks launched, one per core at a time
  // Cube tasks, as GEMM (m x k) * (k x n), `batch` independent products (zero for vector ones).
  std::int64_t batch = 0, m = 0, k = 0, n = 0;
  std::int64_t block_m = 0, block_n = 0;            // one block's slice of the output
  std::int64_t base_m = 0, base_k = 0, base_n = 0;  // one L0 tile
  std::int64_t l1_k = 0;                            // K depth staged in L1 per load
  // Vector instructions per output element run on each Cube output tile before it leaves the
  // core (a fused epilogue), and the extra operands the epilogue reads (per-channel scale, ...).
  double epilogue_passes = 0;
  int epilogue_inputs = 0;
  // Vector tasks (zero for cube ones).
  std::int64_t elements = 0, ub_tile_elements = 0, tiles_per_block = 0;
  bool double_buffer = true;
  // One block's footprint per buffer; each within the target's size.
  std::int64_t l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0, l1_bytes = 0, ub_bytes = 0;
};

// The device an operator is compiled for: the buffer sizes its tiles must fit and the cores they
// split over. `estimate_us`, when set, is the backend's own timing model for a candidate tiling
// of the task being compiled (schedulers rank candidates with it).
struct KernelTarget {
  std::string soc_version;
  int ai_cores = 1;
  int vector_cores = 1;             // on split SoCs, the separate vector cores; else ai_cores
  int cube_m = 16, cube_k = 16, cube_n = 16;  // the fp16 MMAD fractal
  std::int64_t l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0, l1_bytes = 0, ub_bytes = 0;
  double vector_bytes_per_cycle = 256;
  std::size_t element_bytes = 2;    // the task's compute dtype on the device (2: fp16)
  std::function<double(const KernelTiling&)> estimate_us;
};

}  // namespace asc
