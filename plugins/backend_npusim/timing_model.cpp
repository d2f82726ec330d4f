#include "timing_model.hpp"

#include <algorithm>
#include <cmath>

namespace asc::npusim {
namespace {

std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Base tile held in L0 (m x n of L0C, k per MMAD step) and the block of tiles whose operand
// panels L1 keeps: the shapes a hand-written Ascend C matmul typically uses, shrunk to fit.
struct CubeTiling {
  std::int64_t tm, tn, tk;  // L0 tile
  std::int64_t l1_m, l1_n;  // L1 block: A is re-read once per l1_n columns, B once per l1_m rows
};

CubeTiling cube_tiling(const SocConfig& soc, std::int64_t mp, std::int64_t np, std::int64_t kp, std::size_t es,
                       const CubeShape& cube) {
  CubeTiling t{std::min<std::int64_t>(mp, 128), std::min<std::int64_t>(np, 256), std::min<std::int64_t>(kp, 64), 0, 0};
  // L0C holds the fp32 accumulator tile.
  while (t.tm * t.tn * 4 > soc.l0c_bytes && t.tn > cube.n) t.tn /= 2;
  std::int64_t block = 512;  // L1: A and B chunks of k = tk, double-buffered
  while (block > 128 && 2 * (2 * block) * t.tk * static_cast<std::int64_t>(es) > soc.l1_bytes) block /= 2;
  t.l1_m = std::max(t.tm, std::min(block, mp));
  t.l1_n = std::max(t.tn, std::min(block, np));
  return t;
}

struct Traffic {
  double device_bytes = 0, l2_bytes = 0;
};

// Splits loads between device memory and L2: L2-resident inputs, and re-reads of operands that
// fit in L2, come from L2.
Traffic split_loads(const SocConfig& soc, double first_touch, double rereads, double l2_resident, double operand_bytes) {
  Traffic t;
  const double resident = std::min(l2_resident, first_touch);
  t.l2_bytes = resident;
  t.device_bytes = first_touch - resident;
  if (operand_bytes <= static_cast<double>(soc.l2_bytes))
    t.l2_bytes += rereads;
  else
    t.device_bytes += rereads;
  return t;
}

double chip_memory_us(const SocConfig& soc, double device_bytes, double l2_bytes) {
  return device_bytes / (soc.device_memory_bandwidth_gbs * 1e3) + l2_bytes / (soc.l2_bandwidth_gbs * 1e3);
}

void finish(const SocConfig& soc, TaskTiming& t, double compute_cycles, double memory_cycles, double fill_cycles) {
  const double busiest = std::max(compute_cycles, memory_cycles);
  t.core_cycles = std::max({busiest, t.pipes.scalar, t.pipes.mte1}) + fill_cycles;
  t.aicore_us = t.core_cycles / soc.cycles_per_us();
  t.chip_memory_us = chip_memory_us(soc, static_cast<double>(t.device_memory_bytes), static_cast<double>(t.l2_bytes));
  t.compute_us = compute_cycles / soc.cycles_per_us();
  t.memory_us = std::max(memory_cycles / soc.cycles_per_us(), t.chip_memory_us);
  t.memory_copy_us = std::max(0.0, t.memory_us - t.compute_us);
  t.duration_us = std::max(t.aicore_us, t.chip_memory_us) + soc.fixed.kernel_launch_us;
}

TaskTiming time_cube(const SocConfig& soc, const TaskInput& task) {
  const CubeShape& cube = task.element_bytes == 1                    ? soc.cube_int8
                          : task.element_bytes == 4 && soc.cube_fp32 ? *soc.cube_fp32
                                                                     : soc.cube_fp16;
  const auto es = static_cast<std::int64_t>(task.element_bytes);
  TaskTiming t;
  t.task_type = "AI_CORE";
  t.exact_flops = task.flops;

  // Without readable shapes: a square-ish GEMM with the cost facts' work, unpadded.
  GemmDims g = task.gemm.value_or(GemmDims{
      1, std::max<std::int64_t>(1, static_cast<std::int64_t>(std::cbrt(std::max(task.flops / 2, 1.0)))), 0, 0});
  if (!task.gemm) g.n = g.k = g.m;
  const std::int64_t mp = round_up(g.m, cube.m), np = round_up(g.n, cube.n), kp = round_up(g.k, cube.k);
  t.padded_flops = 2.0 * static_cast<double>(g.batch) * mp * np * kp;
  t.exact_flops = task.gemm ? g.flops() : t.padded_flops;

  const CubeTiling tile = cube_tiling(soc, mp, np, kp, task.element_bytes, cube);
  const std::int64_t tiles = g.batch * ceil_div(mp, tile.tm) * ceil_div(np, tile.tn);
  t.block_dim = static_cast<int>(std::min<std::int64_t>(soc.ai_cores, tiles));
  const double tiles_per_core = static_cast<double>(ceil_div(tiles, t.block_dim));
  const double k_steps = static_cast<double>(ceil_div(kp, tile.tk));

  const double fractals = static_cast<double>(tile.tm / cube.m) * (tile.tn / cube.n) * (static_cast<double>(kp) / cube.k);
  // The operator's own FLOPs (bias adds included) floor the cube time when padding is small.
  t.pipes.mac = std::max(tiles_per_core * (fractals + k_steps * soc.fixed.cube_instruction_overhead_cycles),
                         task.flops / (2 * cube.macs_per_cycle() * t.block_dim));
  t.pipes.mte1 = tiles_per_core * (static_cast<double>(tile.tm * kp * es) / soc.paths.l1_to_l0a +
                                   static_cast<double>(kp * tile.tn * es) / soc.paths.l1_to_l0b);
  t.pipes.fixpipe = tiles_per_core * static_cast<double>(tile.tm * tile.tn * es) / soc.paths.l0c_to_gm;
  t.pipes.scalar = tiles_per_core * soc.fixed.scalar_head_cycles;

  // Operand traffic: A once per L1 column block, B once per L1 row block; bias and anything
  // else once. A is the raw input (a convolution's img2col expansion happens on the way from L1
  // to L0A, so it costs MTE1, not memory traffic).
  const double a_bytes = static_cast<double>(task.first_input_elements * es);
  const double b_bytes = static_cast<double>(g.batch) * kp * np * es;
  const double a_reads = static_cast<double>(ceil_div(np, tile.l1_n));
  const double b_reads = static_cast<double>(ceil_div(mp, tile.l1_m));
  const double other = std::max(0.0, static_cast<double>(task.input_elements * es) - a_bytes - b_bytes);
  const double first_touch = a_bytes + b_bytes + other;
  const double rereads = a_bytes * (a_reads - 1) + b_bytes * (b_reads - 1);
  const Traffic loads = split_loads(soc, first_touch, rereads, static_cast<double>(task.l2_resident_input_bytes),
                                    std::max(a_bytes, b_bytes));
  const double loads_per_core = static_cast<double>(tiles_per_core) * static_cast<double>(k_steps) * 2;
  t.pipes.mte2 = (loads.device_bytes / soc.paths.gm_to_l1 + loads.l2_bytes / soc.paths.l2_to_l1) / t.block_dim +
                 loads_per_core * soc.fixed.mte_start_cycles;
  const double output_bytes = static_cast<double>(task.output_elements * es);
  t.device_memory_bytes = static_cast<std::int64_t>(loads.device_bytes + output_bytes);
  t.l2_bytes = static_cast<std::int64_t>(loads.l2_bytes);

  // Double buffering hides all but the first chunk's load and the last tile's store.
  const double fill = soc.fixed.mte_start_cycles +
                      static_cast<double>((tile.tm + tile.tn) * tile.tk * es) / soc.paths.gm_to_l1 +
                      static_cast<double>(tile.tm * tile.tn * es) / soc.paths.l0c_to_gm;
  finish(soc, t, t.pipes.mac, std::max(t.pipes.mte2, t.pipes.fixpipe), fill);
  return t;
}

TaskTiming time_vector(const SocConfig& soc, const TaskInput& task) {
  const auto es = static_cast<std::int64_t>(task.element_bytes);
  TaskTiming t;
  t.task_type = soc.split ? "AI_VECTOR_CORE" : "AI_CORE";
  t.exact_flops = t.padded_flops = task.flops;
  const std::int64_t elements = std::max<std::int64_t>(1, task.largest_elements);
  const int operands = task.input_count + task.output_count;
  // UB split into double-buffered tiles, one per operand, 32-byte aligned.
  const std::int64_t tile_bytes = std::max<std::int64_t>(32, soc.ub_bytes / (2 * operands) / 32 * 32);
  const std::int64_t tile_elements = tile_bytes / es;
  const std::int64_t tiles = ceil_div(elements, tile_elements);
  const int cores = soc.split ? soc.vector_cores : soc.ai_cores;
  t.block_dim = static_cast<int>(std::min<std::int64_t>(cores, tiles));
  const std::int64_t core_elements = ceil_div(elements, t.block_dim);
  const std::int64_t core_tiles = ceil_div(core_elements, tile_elements);
  const std::int64_t last_tile = core_elements - (core_tiles - 1) * tile_elements;

  // Vector instructions per element from the cost facts (at least one pass).
  const double passes = std::max(1.0, task.flops / static_cast<double>(elements));
  t.pipes.vec = passes * (static_cast<double>(core_tiles - 1) * vector_instruction_cycles(soc, tile_bytes) +
                          vector_instruction_cycles(soc, last_tile * es));
  t.pipes.scalar = static_cast<double>(core_tiles) * soc.fixed.scalar_head_cycles;

  const double input_bytes = static_cast<double>(task.input_elements * es);
  const double output_bytes = static_cast<double>(task.output_elements * es);
  const Traffic loads = split_loads(soc, input_bytes, 0, static_cast<double>(task.l2_resident_input_bytes), input_bytes);
  t.pipes.mte2 = (loads.device_bytes / soc.paths.gm_to_ub + loads.l2_bytes / soc.paths.l2_to_ub) / t.block_dim +
                 static_cast<double>(core_tiles * task.input_count) * soc.fixed.mte_start_cycles;
  t.pipes.mte3 = output_bytes / soc.paths.ub_to_gm / t.block_dim +
                 static_cast<double>(core_tiles * task.output_count) * soc.fixed.mte_start_cycles;
  t.device_memory_bytes = static_cast<std::int64_t>(loads.device_bytes + output_bytes);
  t.l2_bytes = static_cast<std::int64_t>(loads.l2_bytes);

  const double first_tile_bytes = static_cast<double>(std::min(core_elements, tile_elements) * es);
  const double fill = soc.fixed.mte_start_cycles + first_tile_bytes * task.input_count / soc.paths.gm_to_ub +
                      static_cast<double>(last_tile * es) * task.output_count / soc.paths.ub_to_gm;
  finish(soc, t, t.pipes.vec, std::max(t.pipes.mte2, t.pipes.mte3), fill);
  return t;
}

// Control-heavy operators run on the AI CPU: one operation per cycle, data read once.
TaskTiming time_scalar(const SocConfig& soc, const TaskInput& task) {
  TaskTiming t;
  t.task_type = "AI_CPU";
  t.exact_flops = t.padded_flops = task.flops;
  t.pipes.scalar = std::max(task.flops, static_cast<double>(task.largest_elements));
  t.device_memory_bytes = static_cast<std::int64_t>((task.input_elements + task.output_elements) *
                                                    static_cast<std::int64_t>(task.element_bytes));
  finish(soc, t, t.pipes.scalar, 0, 0);
  return t;
}

}  // namespace

double vector_instruction_cycles(const SocConfig& soc, std::int64_t bytes) {
  const double repeats = std::ceil(static_cast<double>(bytes) / soc.vector_bytes_per_cycle);
  return std::max(repeats, soc.fixed.vector_instruction_min_cycles);
}

TaskTiming time_task(const SocConfig& soc, const TaskInput& task) {
  switch (task.unit) {
    case ComputeUnit::Cube:
      return time_cube(soc, task);
    case ComputeUnit::Scalar:
      return time_scalar(soc, task);
    case ComputeUnit::Vector:
    case ComputeUnit::None:
      break;
  }
  return time_vector(soc, task);
}

}  // namespace asc::npusim
